import { findProtectedAreas } from './find-protected-areas.js'
import { getProtectedArea } from './get-protected-area.js'
import { searchProtectedAreas } from './search-protected-areas.js'

/** The operations of the `naturbase` source, keyed as its outline reads them: loaded when a request first reads them. */
export const naturbaseOperations = { findProtectedAreas, getProtectedArea, searchProtectedAreas }
