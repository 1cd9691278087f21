import { deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import { vegvesenEntitySearch } from './entity-search.js'
import { trafficRegistrationPointsPlaceField } from './place-fields.js'
import { vegvesenTrafikkdata } from './trafikkdata-upstream.js'

/**
 * The built-in `vegvesen` source: Statens vegvesen's traffic registration points near a point,
 * in a county, on a road or by name, and their hourly and daily volumes, from the trafikkdata.no GraphQL
 * API. The list of points is fetched once a day and searched locally.
 *
 * @example
 * import { createGateway } from '@allmenning/core'
 * import { vegvesen } from '@allmenning/sources/vegvesen'
 * const gateway = createGateway({ sources: [vegvesen()] })
 * // GET /api/v1/kilder/vegvesen/get_traffic_volume?registration_point_id=44656V72812&resolution=day&from=2026-11-01&to=2026-11-25
 */
export function vegvesen(): SourceDefinition {
  return defineSource({
    id: 'vegvesen',
    name: 'Traffic volumes (Statens vegvesen)',
    description:
      "Statens vegvesen's traffic registration points on Norway's roads (vehicles and bicycles), near a point, in a county, on a road or by name, and the volumes they counted hour by hour or day by day, from trafikkdata.no.",
    documentation: 'https://trafikkdata.atlas.vegvesen.no/',
    topic: 'transport',
    keywords: ['traffic', 'trafikk', 'trafikkdata', 'traffic volume', 'trafikkmengde', 'vegvesen', 'road', 'veg'],
    synonyms: ['trafikkteller', 'tellepunkt', 'ådt', 'aadt', 'biler', 'sykkel', 'vei', 'statens vegvesen', 'traffic counter', 'registration point'],
    contentLanguages: ['no'],
    cacheTtlSeconds: 3600,
    limit: { default: 25, max: 200 },
    upstreams: [vegvesenTrafikkdata],
    entityTypes: { traffic_registration_point: { operation: 'get_traffic_volume', parameter: 'registration_point_id' } },
    entitySearch: vegvesenEntitySearch,
    // The operations' code is imported when a request first reads it (see deferOperations).
    operations: deferOperations(
      [
        { name: 'find_registration_points_nearby', placeField: trafficRegistrationPointsPlaceField },
        'find_registration_points_by_road',
        'search_registration_points',
        'get_traffic_volume',
        'find_traffic_points',
      ],
      async () => (await import('./operations.js')).vegvesenOperations(),
    ),
  })
}
export { vegvesenTrafikkdata } from './trafikkdata-upstream.js'
