import { createMunicipalityLookup } from '../shared/kommuneinfo.js'
import { createFindSchoolsNearby } from './find-schools-nearby.js'
import { createGetUnit } from './get-unit.js'
import { createMunicipalityAtPoint } from '../shared/municipality-at-point.js'
import { createSearchKindergartens, createSearchSchools } from './search-units.js'
import type { UnitRegister } from './unit-register.js'

/**
 * The operations of one `utdanning()` source, in the order of its outline, over its own copy
 * of the registers: loaded when a request first reads them.
 */
export function utdanningOperations(register: UnitRegister) {
  const municipalities = createMunicipalityLookup()
  return [
    createSearchSchools({ register, municipalities }),
    createSearchKindergartens({ register, municipalities }),
    createGetUnit({ register }),
    createFindSchoolsNearby({ register, municipalityAt: createMunicipalityAtPoint() }),
  ]
}
