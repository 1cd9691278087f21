import { createMunicipalityLookup } from '../shared/kommuneinfo.js'
import { createFindSchoolsNearby } from './find-schools-nearby.js'
import { createGetUnit } from './get-unit.js'
import { createMunicipalityAtPoint } from '../shared/municipality-at-point.js'
import { createSearchKindergartens, createSearchSchools } from './search-units.js'
import type { UnitRegister } from './unit-register.js'

/**
 * The operations of one `utdanning()` source, keyed as its outline reads them, over its own copy
 * of the registers: loaded when a request first reads them.
 */
export function utdanningOperations(register: UnitRegister) {
  const municipalities = createMunicipalityLookup()
  return {
    searchSchools: createSearchSchools({ register, municipalities }),
    searchKindergartens: createSearchKindergartens({ register, municipalities }),
    getUnit: createGetUnit({ register }),
    findSchoolsNearby: createFindSchoolsNearby({ register, municipalityAt: createMunicipalityAtPoint() }),
  }
}
