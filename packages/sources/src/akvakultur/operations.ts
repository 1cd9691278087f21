import { createFindSitesNearby } from './find-sites-nearby.js'
import { createSiteRegister } from './site-register.js'

/**
 * The operations of one `akvakultur()` source, keyed as its outline reads them, over its own copy
 * of the site register: loaded when a request first reads them.
 */
export function akvakulturOperations() {
  return { findSitesNearby: createFindSitesNearby(createSiteRegister()) }
}
