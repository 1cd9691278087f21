import { deferEntitySearch, deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import { kartverketKommuneinfo } from '../shared/kommuneinfo-upstream.js'
import { DIMU_KEY_VARIABLE, dimuApi, riksantikvarenApi } from './kulturarv-upstreams.js'
import { heritageSitesPlaceField } from './place-fields.js'

/** Options of the {@link kulturarv} source. */
export interface KulturarvOptions {
  /**
   * The DigitaltMuseum API key (ask KulturIT; `demo` works for testing, at most 10 records).
   * Without it the museum operations answer 502 upstream_not_configured; the heritage sites
   * need no key.
   */
  dimuApiKey?: string
}

/**
 * The built-in `kulturarv` source: cultural heritage sites from Riksantikvaren's Askeladden
 * register (keyless) and museum objects and museums from DigitaltMuseum (with a key).
 * `builtInSources(env)` passes `ALLMENNING_DIMU_API_KEY` as `dimuApiKey`.
 *
 * @example
 * import { createGateway } from '@allmenning/core'
 * import { kulturarv } from '@allmenning/sources/kulturarv'
 * const gateway = createGateway({ sources: [kulturarv({ dimuApiKey: process.env.ALLMENNING_DIMU_API_KEY })] })
 * // GET /api/v1/kilder/kulturarv/search_heritage_sites?kommune=Oslo&art=Museum-galleri&limit=100
 */
export function kulturarv(options: KulturarvOptions = {}): SourceDefinition {
  const dimuApiKey = options.dimuApiKey?.trim() || undefined
  return defineSource({
    id: 'kulturarv',
    name: 'Cultural heritage: Askeladden (Riksantikvaren) and DigitaltMuseum',
    description:
      "Norway's cultural heritage: listed and protected buildings, monuments, churches and archaeological sites from " +
      "Riksantikvaren's Askeladden register, by municipality, kind or around a point; and the objects and photographs of " +
      'Norwegian museums from DigitaltMuseum, with the museums and their codes (DigitaltMuseum needs an API key).',
    documentation: 'https://api.ra.no/',
    topic: 'culture',
    keywords: [
      'cultural heritage',
      'kulturminner',
      'kulturarv',
      'askeladden',
      'riksantikvaren',
      'museum',
      'digitaltmuseum',
      'fredet',
    ],
    synonyms: [
      'heritage sites',
      'monuments',
      'listed buildings',
      'fredete bygninger',
      'kirker',
      'gravhauger',
      'museer',
      'museumsgjenstander',
      'kulturminnesøk',
      'dimu',
      'historic buildings',
      'archaeology',
      'arkeologi',
      'samlinger',
    ],
    contentLanguages: ['no'],
    cacheTtlSeconds: 6 * 3600,
    limit: { default: 100, max: 1000 },
    upstreams: [riksantikvarenApi, dimuApi, kartverketKommuneinfo],
    relatedSources: [{ id: 'anleggsregisteret', reason: 'Cultural buildings built with gaming funds' }],
    entityTypes: {
      heritage_site: { operation: 'search_heritage_sites', parameter: 'query' },
      museum: { operation: 'search_museum_objects', parameter: 'owner' },
    },
    // Imported when a search first needs it, as the operations it calls are.
    entitySearch: deferEntitySearch(async () => (await import('./entity-search.js')).kulturarvEntitySearch),
    notConfigured: dimuApiKey
      ? []
      : [{ configure: DIMU_KEY_VARIABLE, operations: ['search_museum_objects', 'list_museums'] }],
    // The operations' code is imported when a request first reads it (see deferOperations).
    operations: deferOperations(
      {
        search_heritage_sites: { operation: 'searchHeritageSites', placeField: heritageSitesPlaceField },
        search_museum_objects: 'searchMuseumObjects',
        list_museums: 'listMuseums',
      },
      async () => (await import('./operations.js')).kulturarvOperations(dimuApiKey),
    ),
  })
}
export { DIMU_KEY_VARIABLE, dimuApi, riksantikvarenApi } from './kulturarv-upstreams.js'
export { kartverketKommuneinfo } from '../shared/kommuneinfo-upstream.js'
