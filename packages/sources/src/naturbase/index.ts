import { deferEntitySearch, deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import { naturbaseVern } from './naturbase-upstream.js'
import { protectedAreasPlaceField } from './place-fields.js'

/**
 * The built-in `naturbase` source: protected areas (verneområder) from Miljødirektoratet's
 * Naturbase, around a point or by id or name, each with a point that lies inside it and its
 * outline as GeoJSON. Named after the register, which holds more layers (outdoor recreation
 * areas, habitat types) that can become operations of the same source.
 *
 * @example
 * import { createGateway } from '@allmenning/core'
 * import { naturbase } from '@allmenning/sources/naturbase'
 * const gateway = createGateway({ sources: [naturbase()] })
 * // GET /api/v1/kilder/naturbase/find_protected_areas?lat=59.8859&lon=10.8247&radius_km=3
 */
export function naturbase(): SourceDefinition {
  return defineSource({
    id: 'naturbase',
    name: 'Naturbase: protected areas (Miljødirektoratet)',
    description:
      "Norway's protected areas from Miljødirektoratet's Naturbase: national parks, nature reserves, landscape protection " +
      'areas, natural monuments and more, near a point, by name or by id, with IUCN category, date of protection, ' +
      'regulation, fact sheet, a point inside each area and its outline as GeoJSON.',
    documentation: 'https://kart.miljodirektoratet.no/arcgis/rest/services/vern/MapServer/0',
    topic: 'environment',
    keywords: [
      'protected areas',
      'verneområder',
      'naturvern',
      'nasjonalpark',
      'naturreservat',
      'landskapsvernområde',
      'naturbase',
    ],
    synonyms: [
      'national park',
      'nature reserve',
      'verneområde',
      'vernet natur',
      'naturminne',
      'biotopvern',
      'marint verneområde',
      'natur',
    ],
    contentLanguages: ['no'],
    cacheTtlSeconds: 12 * 3600,
    limit: { default: 50, max: 500 },
    upstreams: [naturbaseVern],
    entityTypes: { protected_area: { operation: 'get_protected_area', parameter: 'id' } },
    // Imported when a search first needs it, as the operations it calls are.
    entitySearch: deferEntitySearch(async () => (await import('./entity-search.js')).naturbaseEntitySearch),
    // The operations' code is imported when a request first reads it (see deferOperations).
    operations: deferOperations(
      {
        find_protected_areas: { operation: 'findProtectedAreas', placeField: protectedAreasPlaceField },
        get_protected_area: 'getProtectedArea',
        search_protected_areas: 'searchProtectedAreas',
      },
      async () => (await import('./operations.js')).naturbaseOperations,
    ),
  })
}
export { naturbaseVern } from './naturbase-upstream.js'
