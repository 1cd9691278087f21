import { createMunicipalityLookup } from '../shared/kommuneinfo.js'
import { createListMuseums } from './list-museums.js'
import { createOwnerList } from './museum-owners.js'
import { createSearchHeritageSites } from './search-heritage-sites.js'
import { createSearchMuseumObjects } from './search-museum-objects.js'

/**
 * The operations of one `kulturarv()` source with its DigitaltMuseum key (or none), in the
 * order of its outline: loaded when a request first reads them.
 */
export function kulturarvOperations(dimuApiKey: string | undefined) {
  const owners = createOwnerList()
  return [
    createSearchHeritageSites({ municipalities: createMunicipalityLookup() }),
    createSearchMuseumObjects({ apiKey: dimuApiKey, owners }),
    createListMuseums({ apiKey: dimuApiKey, owners }),
  ]
}
