import { deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import { FIRMS_KEY_VARIABLE, firmsApi } from './firms-upstream.js'
import { fireDetectionsPlaceField } from './place-fields.js'

/** Options of the {@link firms} source. */
export interface FirmsOptions {
  /** A FIRMS MAP_KEY (free, at firms.modaps.eosdis.nasa.gov/api). Without it the operation answers 502 upstream_not_configured. */
  mapKey?: string
}

/**
 * The built-in `firms` source: satellite fire detections near a point, from NASA FIRMS.
 * `builtInSources(env)` passes `ALLMENNING_FIRMS_MAP_KEY` as `mapKey`.
 *
 * @example
 * import { createGateway } from '@allmenning/core'
 * import { firms } from '@allmenning/sources/firms'
 * const gateway = createGateway({ sources: [firms({ mapKey: process.env.ALLMENNING_FIRMS_MAP_KEY })] })
 * // GET /api/v1/kilder/firms/find_fire_detections?lat=58.9&lon=6.1&radius_km=50&days=3
 */
export function firms(options: FirmsOptions = {}): SourceDefinition {
  const mapKey = options.mapKey?.trim() || undefined
  return defineSource({
    id: 'firms',
    name: 'NASA FIRMS fire detections',
    description:
      "Active fires and other thermal anomalies seen by NASA's VIIRS and MODIS satellite instruments in near real time, searchable by distance from a point. Needs a free FIRMS MAP_KEY.",
    documentation: 'https://firms.modaps.eosdis.nasa.gov/api/area/',
    topic: 'environment',
    keywords: ['fire', 'wildfire', 'skogbrann', 'brann', 'FIRMS', 'NASA', 'satellite', 'hot spots'],
    synonyms: [
      'lyngbrann',
      'gressbrann',
      'forest fire',
      'active fire',
      'thermal anomaly',
      'VIIRS',
      'MODIS',
      'varmepunkt',
    ],
    contentLanguages: ['en'],
    cacheTtlSeconds: 900,
    limit: { default: 25, max: 100 },
    upstreams: [firmsApi],
    notConfigured: mapKey ? [] : [{ configure: FIRMS_KEY_VARIABLE }],
    // The operations' code is imported when a request first reads it (see deferOperations).
    operations: deferOperations(
      { find_fire_detections: { operation: 'findFireDetections', placeField: fireDetectionsPlaceField } },
      async () => (await import('./operations.js')).firmsOperations(mapKey),
    ),
  })
}
export { firmsApi, FIRMS_KEY_VARIABLE } from './firms-upstream.js'
