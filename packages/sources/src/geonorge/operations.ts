import { findAddressesNearby } from './find-addresses-nearby.js'
import { findPlaceNamesNearby } from './find-place-names-nearby.js'
import { searchAddress } from './search-address.js'
import { searchPlaceName } from './search-place-name.js'

/** Geonorge's operations, keyed as the source's outline reads them: loaded when a request first reads them. */
export const geonorgeOperations = { searchAddress, searchPlaceName, findAddressesNearby, findPlaceNamesNearby }
