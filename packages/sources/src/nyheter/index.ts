import { deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import { kartverketStedsnavn } from '../geonorge/kartverket-upstreams.js'
import { kartverketKommuneinfo } from '../shared/kommuneinfo-upstream.js'
import { nrkFeeds, politiloggen } from './nyheter-upstreams.js'
import { newsPlaceField } from './place-fields.js'

/**
 * The built-in `nyheter` source: news on the map. The police's operative log (Politiloggen),
 * each message placed by Kartverket's place names and municipality register (the log carries
 * no coordinates), and NRK's regional latest news for the point's region.
 *
 * @example
 * import { createGateway } from '@allmenning/core'
 * import { nyheter } from '@allmenning/sources/nyheter'
 * const gateway = createGateway({ sources: [nyheter()] })
 * // GET /api/v1/kilder/nyheter/search_news?lat=59.91&lon=10.75&radius_km=20&limit=100
 */
export function nyheter(): SourceDefinition {
  return defineSource({
    id: 'nyheter',
    name: 'News on the map: the police log and NRK regional news',
    description:
      "Local news around a point: the police's operative log from the operations centres (Politiloggen: traffic, fires, " +
      "thefts, missing persons…) placed on the map, and NRK's regional latest news for the point's region.",
    documentation: 'https://www.politiet.no/politiloggen/',
    topic: 'society',
    keywords: ['news', 'nyheter', 'politiloggen', 'police log', 'politi', 'police', 'NRK', 'hendelser', 'incidents'],
    synonyms: [
      'politiet',
      'ulykke',
      'accident',
      'brann',
      'fire',
      'trafikk',
      'lokalnyheter',
      'local news',
      'distriktsnyheter',
    ],
    contentLanguages: ['no'],
    cacheTtlSeconds: 90,
    limit: { default: 100, max: 500 },
    upstreams: [politiloggen, nrkFeeds, kartverketKommuneinfo, kartverketStedsnavn],
    relatedSources: [{ id: 'geonorge', reason: 'Place names and municipalities the messages are placed by' }],
    // The operation's code is imported when a request first reads it (see deferOperations).
    operations: deferOperations({ search_news: { operation: 'searchNews', placeField: newsPlaceField } }, async () =>
      (await import('./operations.js')).nyheterOperations(),
    ),
  })
}
export { politiloggen, nrkFeeds } from './nyheter-upstreams.js'
export { kartverketKommuneinfo } from '../shared/kommuneinfo-upstream.js'
export { kartverketStedsnavn } from '../geonorge/kartverket-upstreams.js'
