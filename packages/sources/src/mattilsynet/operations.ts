import { createFindEstablishmentsNearby } from './find-establishments-nearby.js'
import { createSearchEstablishments } from './search-establishments.js'

/**
 * The operations of one `mattilsynet()` source, in the order of its outline: loaded when a
 * request first reads them.
 */
export function mattilsynetOperations(now: () => Date) {
  return [createSearchEstablishments({ now }), createFindEstablishmentsNearby({ now })]
}
