import { createMunicipalityLookup } from '../shared/kommuneinfo.js'
import { createListMuseums } from './list-museums.js'
import { createOwnerList } from './museum-owners.js'
import { createSearchHeritageSites } from './search-heritage-sites.js'
import { createSearchMuseumObjects } from './search-museum-objects.js'

/**
 * The operations of one `kulturarv()` source with its DigitaltMuseum key (or none), keyed as
 * its outline reads them: loaded when a request first reads them.
 */
export function kulturarvOperations(dimuApiKey: string | undefined) {
  const owners = createOwnerList()
  return {
    searchHeritageSites: createSearchHeritageSites({ municipalities: createMunicipalityLookup() }),
    searchMuseumObjects: createSearchMuseumObjects({ apiKey: dimuApiKey, owners }),
    listMuseums: createListMuseums({ apiKey: dimuApiKey, owners }),
  }
}
