import { deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import { kartverketAdresser } from '../geonorge/kartverket-upstreams.js'
import { HYDAPI_KEY_VARIABLE, nveAvalanche, nveFlood, nveHydapi, nveLandslide } from './nve-upstreams.js'
import { hazardWarningsPlaceField, hydroStationsPlaceField } from './place-fields.js'

/** Options of the {@link nve} source. */
export interface NveOptions {
  /**
   * The HydAPI key (free, from https://hydapi.nve.no/users) for `find_hydro_stations`. Without
   * it that operation answers 502 upstream_not_configured; the Varsom warnings need no key.
   */
  hydapiKey?: string
}

/**
 * The built-in `nve` source: NVE's flood, landslide and avalanche warnings from Varsom, for a
 * municipality, a county or a point, and its hydrological stations with their latest water
 * levels (HydAPI), both in the places bundle's `hazards` section. `builtInSources(env)` passes
 * `ALLMENNING_NVE_HYDAPI_KEY` as `hydapiKey`.
 *
 * @example
 * import { nve } from '@allmenning/sources/nve'
 * const gateway = createGateway({ sources: [nve({ hydapiKey: process.env.ALLMENNING_NVE_HYDAPI_KEY })] })
 * // GET /api/v1/kilder/nve/get_warnings?municipality=4601
 * // GET /api/v1/kilder/nve/find_hydro_stations?lat=59.91&lon=10.75&radius_km=20&has_recent_data=true
 * // GET /api/v1/steder/60.391/5.322?section=hazards
 */
export function nve(options: NveOptions = {}): SourceDefinition {
  const hydapiKey = options.hydapiKey?.trim() || undefined
  return defineSource({
    id: 'nve',
    name: 'NVE: flood, landslide and avalanche warnings (Varsom), hydrological stations (HydAPI)',
    description:
      "The Norwegian Water Resources and Energy Directorate's warnings from Varsom: flood (Flomvarslingen), landslide " +
      '(Jordskredvarslingen) and avalanche (Snøskredvarslingen) warnings for a municipality, a county or a point, one day at a time; ' +
      'and its hydrological stations near a point with their latest water level and discharge (HydAPI, needs a key).',
    documentation: 'https://api.nve.no/doc/',
    topic: 'hazards',
    keywords: [
      'flood',
      'landslide',
      'avalanche',
      'warning',
      'flom',
      'jordskred',
      'snøskred',
      'skred',
      'varsom',
      'farevarsel',
      'nve',
      'vannstand',
      'vannføring',
      'hydrology',
    ],
    synonyms: [
      'flomvarsel',
      'skredvarsel',
      'ras',
      'snøskredvarsel',
      'jordskredvarsel',
      'naturfare',
      'natural hazard',
      'snow avalanche',
      'mudslide',
      'oversvømmelse',
      'water level',
      'discharge',
      'river gauge',
      'målestasjon',
      'hydrologisk stasjon',
      'hydapi',
    ],
    contentLanguages: ['en', 'no'],
    cacheTtlSeconds: 900,
    // Kartverket's address register tells which municipality a point lies in.
    upstreams: [nveFlood, nveLandslide, nveAvalanche, kartverketAdresser, nveHydapi],
    notConfigured: hydapiKey ? [] : [{ configure: HYDAPI_KEY_VARIABLE, operations: ['find_hydro_stations'] }],
    // The operations' code is imported when a request first reads it (see deferOperations).
    operations: deferOperations(
      {
        get_warnings: { operation: 'getWarnings', placeField: hazardWarningsPlaceField },
        find_hydro_stations: { operation: 'findHydroStations', placeField: hydroStationsPlaceField },
      },
      async () => (await import('./operations.js')).nveOperations(hydapiKey),
    ),
  })
}
export { HYDAPI_KEY_VARIABLE, nveAvalanche, nveFlood, nveHydapi, nveLandslide } from './nve-upstreams.js'
