import { createMunicipalityLookup } from '../shared/kommuneinfo.js'
import { anleggsregisteretRequestBudget } from './anleggsregisteret-budget.js'
import { createFacilityRegister, type FacilityRegisterOptions } from './facility-register.js'
import { createFindFacilities } from './find-facilities.js'
import { createFindFacilitiesNearby } from './find-facilities-nearby.js'
import { createGetFacility } from './get-facility.js'
import { createSearchFacilities } from './search-facilities.js'

/**
 * The operations of one `anleggsregisteret()` source, keyed as its outline reads them, over its
 * own copy of the register (read with the given settings; the process's shared request budget
 * by default): loaded when a request first reads them.
 */
export function anleggsregisteretOperations(register: Partial<FacilityRegisterOptions> = {}) {
  const options: FacilityRegisterOptions = { ...register, budget: register.budget ?? anleggsregisteretRequestBudget }
  const copy = createFacilityRegister(options)
  return {
    findFacilities: createFindFacilities({ register: copy, municipalities: createMunicipalityLookup() }),
    findFacilitiesNearby: createFindFacilitiesNearby(copy),
    searchFacilities: createSearchFacilities(copy),
    getFacility: createGetFacility(copy),
  }
}
