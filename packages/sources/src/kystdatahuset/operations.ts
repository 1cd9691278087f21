import { createFindPortsNearby } from './find-ports-nearby.js'
import { createLocationRegister } from './location-register.js'

/**
 * The operations of one `kystdatahuset()` source, keyed as its outline reads them, over its own
 * copy of the location register: loaded when a request first reads them.
 */
export function kystdatahusetOperations() {
  return { findPortsNearby: createFindPortsNearby(createLocationRegister()) }
}
