import { listCategories } from './list-categories.js'
import { createSearchPoi } from './search-poi.js'

/** The operations of one `poiNorge()` source, keyed as its outline reads them, with its memo of Overpass answers: loaded when a request first reads them. */
export function poiNorgeOperations() {
  return { searchPoi: createSearchPoi(), listCategories }
}
