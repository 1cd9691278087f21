import { deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import { overpassApi } from './overpass-upstream.js'
import { poisPlaceField } from './place-fields.js'

/**
 * The built-in `poi_norge` source: points of interest near a point, from OpenStreetMap through
 * the Overpass API. Each call of the factory keeps its own memo of Overpass answers.
 *
 * @example
 * import { createGateway } from '@allmenning/core'
 * import { poiNorge } from '@allmenning/sources/poi_norge'
 * const gateway = createGateway({ sources: [poiNorge()], upstreams: { overpass: { baseUrl: 'https://overpass.example.no/api' } } })
 * // GET /api/v1/kilder/poi_norge/search_poi?lat=59.911&lon=10.745&radius_km=2&category=bicycle_parking
 * // GET /api/v1/kilder/poi_norge/list_categories
 */
export function poiNorge(): SourceDefinition {
  return defineSource({
    id: 'poi_norge',
    name: 'Points of interest (OpenStreetMap)',
    description:
      'Points of interest in Norway from OpenStreetMap: restaurants, cafés, shops, museums, hotels, bicycle parking and more, searchable by distance from a point and by OpenStreetMap key and value.',
    documentation: 'https://wiki.openstreetmap.org/wiki/Overpass_API',
    topic: 'places',
    keywords: [
      'points of interest',
      'POI',
      'OpenStreetMap',
      'restaurants',
      'shops',
      'severdigheter',
      'butikker',
      'spisesteder',
    ],
    synonyms: [
      'osm',
      'amenity',
      'kafé',
      'cafe',
      'museum',
      'hotell',
      'sykkelparkering',
      'attraksjoner',
      'interessepunkter',
    ],
    contentLanguages: ['no', 'en'],
    cacheTtlSeconds: 3600,
    upstreams: [overpassApi],
    // The operations' code is imported when a request first reads it (see deferOperations).
    operations: deferOperations(
      { search_poi: { operation: 'searchPoi', placeField: poisPlaceField }, list_categories: 'listCategories' },
      async () => (await import('./operations.js')).poiNorgeOperations(),
    ),
  })
}
export { overpassApi } from './overpass-upstream.js'
