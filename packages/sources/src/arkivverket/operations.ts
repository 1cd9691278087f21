import type { RequestBudget } from '../shared/request-budget.js'
import { createGetCensusProperty } from './get-census-property.js'
import { createSearchCensusProperties } from './search-census-properties.js'

/**
 * The operations of one `arkivverket()` source, keyed as its outline reads them, taking turns in the
 * given request budget: loaded when a request first reads them.
 */
export function arkivverketOperations(budget: RequestBudget | undefined) {
  return {
    searchCensusProperties: createSearchCensusProperties(budget),
    getCensusProperty: createGetCensusProperty(budget),
  }
}
