import { deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import { YR_BADETEMP_KEY_VARIABLE, yrBadetemperaturer } from './badetemp-upstream.js'
import { waterTemperaturesPlaceField } from './place-fields.js'

/** Options of the {@link badetemp} source. */
export interface BadetempOptions {
  /** Yr's API key for bathing temperatures (ask support@yr.no). Without it the operations answer 502 upstream_not_configured. */
  apiKey?: string
}

/**
 * The built-in `badetemp` source: bathing water temperatures near a point, and one measuring
 * point's recent readings, from Yr ("Badetemperaturer levert av Yr"). `builtInSources(env)`
 * passes `ALLMENNING_YR_BADETEMP_API_KEY` as `apiKey`.
 *
 * @example
 * import { createGateway } from '@allmenning/core'
 * import { badetemp } from '@allmenning/sources/badetemp'
 * const gateway = createGateway({ sources: [badetemp({ apiKey: process.env.ALLMENNING_YR_BADETEMP_API_KEY })] })
 * // GET /api/v1/kilder/badetemp/get_nearest_water_temperatures?lat=59.91&lon=10.75
 */
export function badetemp(options: BadetempOptions = {}): SourceDefinition {
  const apiKey = options.apiKey?.trim() || undefined
  return defineSource({
    id: 'badetemp',
    name: 'Yr bathing temperatures (badetemperaturer)',
    description:
      'Bathing water temperatures in Norway from Yr: the nearest measuring points to a place with their latest reading, and ' +
      'one point’s readings from the last five days. Badetemperaturer levert av Yr. Needs a Yr API key.',
    documentation: 'https://hjelp.yr.no/hc/no/articles/5949243432850-API-for-badetemperaturer',
    topic: 'weather',
    keywords: [
      'bathing temperature',
      'badetemperatur',
      'water temperature',
      'vanntemperatur',
      'yr',
      'bading',
      'swimming',
    ],
    synonyms: ['badevann', 'badeplass', 'sjøtemperatur', 'sea temperature', 'beach', 'strand', 'bade', 'svømming'],
    contentLanguages: ['no', 'en'],
    cacheTtlSeconds: 900,
    upstreams: [yrBadetemperaturer],
    notConfigured: apiKey ? [] : [{ configure: YR_BADETEMP_KEY_VARIABLE }],
    entityTypes: { bathing_spot: { operation: 'get_water_temperatures', parameter: 'location_id' } },
    // The operations' code is imported when a request first reads it (see deferOperations).
    operations: deferOperations(
      {
        get_nearest_water_temperatures: {
          operation: 'getNearestWaterTemperatures',
          placeField: waterTemperaturesPlaceField,
        },
        get_water_temperatures: 'getWaterTemperatures',
      },
      async () => (await import('./operations.js')).badetempOperations(apiKey),
    ),
  })
}
export { yrBadetemperaturer, YR_ATTRIBUTION, YR_BADETEMP_KEY_VARIABLE } from './badetemp-upstream.js'
