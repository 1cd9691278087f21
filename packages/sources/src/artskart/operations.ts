import { createMunicipalityLookup } from '../shared/kommuneinfo.js'
import type { RequestBudget } from '../shared/request-budget.js'
import { artskartRequestBudget } from './artskart-budget.js'
import { createFindObservations } from './find-observations.js'
import { createFindObservationsNearby } from './find-observations-nearby.js'

/**
 * The operations of one `artskart()` source, keyed as its outline reads them, over its own
 * municipality lookup and the Artskart request budget given (the process's shared one by
 * default): loaded when a request first reads them.
 */
export function artskartOperations(budget: RequestBudget = artskartRequestBudget) {
  const deps = { municipalities: createMunicipalityLookup(), budget }
  return { findObservations: createFindObservations(deps), findObservationsNearby: createFindObservationsNearby(deps) }
}
