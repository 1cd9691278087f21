import { createFindEstablishmentsNearby } from './find-establishments-nearby.js'
import { createSearchEstablishments } from './search-establishments.js'

/**
 * The operations of one `mattilsynet()` source, keyed as its outline reads them: loaded when a
 * request first reads them.
 */
export function mattilsynetOperations(now: () => Date) {
  return {
    searchEstablishments: createSearchEstablishments({ now }),
    findEstablishmentsNearby: createFindEstablishmentsNearby({ now }),
  }
}
