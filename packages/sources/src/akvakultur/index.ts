import { deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import { fiskeridirAqua, fiskeridirGis } from './fiskeridir-upstreams.js'
import { aquaculturePlaceField } from './place-fields.js'

/**
 * The built-in `akvakultur` source: aquaculture sites near a point, from Fiskeridirektoratet's
 * Aquaculture Register (its map service, or its register API when the map layer is empty).
 * Each call of the factory keeps its own copy of the register, loaded once a day.
 *
 * @example
 * import { createGateway } from '@allmenning/core'
 * import { akvakultur } from '@allmenning/sources/akvakultur'
 * const gateway = createGateway({ sources: [akvakultur()] })
 * // GET /api/v1/kilder/akvakultur/find_sites_nearby?lat=60.1&lon=5.2&radius_km=15
 */
export function akvakultur(): SourceDefinition {
  return defineSource({
    id: 'akvakultur',
    name: 'Akvakulturregisteret (Fiskeridirektoratet)',
    description:
      "Fiskeridirektoratet's Aquaculture Register: fish farms and other aquaculture sites along the coast and inland, with holders, species and permitted capacity, searchable by distance from a point.",
    documentation: 'https://api.fiskeridir.no/pub-aqua/api/swagger-ui/index.html',
    topic: 'maritime',
    keywords: ['aquaculture', 'akvakultur', 'fish farms', 'oppdrett', 'lokaliteter', 'laks', 'fiskeridirektoratet'],
    synonyms: [
      'fiskeoppdrett',
      'oppdrettsanlegg',
      'salmon farm',
      'fish farming',
      'merder',
      'sjømat',
      'lakseoppdrett',
      'havbruk',
    ],
    contentLanguages: ['no'],
    cacheTtlSeconds: 3600,
    limit: { default: 25, max: 100 },
    upstreams: [fiskeridirGis, fiskeridirAqua],
    relatedSources: [{ id: 'kystdatahuset', reason: 'Ports and quays near the same point' }],
    // The operations' code is imported when a request first reads it (see deferOperations).
    operations: deferOperations(
      { find_sites_nearby: { operation: 'findSitesNearby', placeField: aquaculturePlaceField } },
      async () => (await import('./operations.js')).akvakulturOperations(),
    ),
  })
}
export { fiskeridirGis, fiskeridirAqua } from './fiskeridir-upstreams.js'
