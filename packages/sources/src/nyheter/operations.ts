import { createMunicipalityLookup } from '../shared/kommuneinfo.js'
import { createNrkFeedCache } from './nrk-feed.js'
import { createPlacer } from './placement.js'
import { createMunicipalityAtPoint } from '../shared/municipality-at-point.js'
import { createPoliceLogCache } from './police-log.js'
import { createSearchNews } from './search-news.js'

/**
 * The operations of one `nyheter()` source, keyed as its outline reads them, each instance with its
 * own caches of the log, the feeds and the placements: loaded when a request first reads them.
 *
 * @example
 * const { searchNews } = nyheterOperations()
 */
export function nyheterOperations() {
  const municipalities = createMunicipalityLookup()
  return {
    searchNews: createSearchNews({
      policeLog: createPoliceLogCache(),
      nrk: createNrkFeedCache(),
      placer: createPlacer(municipalities),
      municipalityAt: createMunicipalityAtPoint(),
      municipalities,
    }),
  }
}
