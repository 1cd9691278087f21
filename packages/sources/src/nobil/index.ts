import { deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import { NOBIL_KEY_VARIABLE, nobilApi } from './nobil-upstream.js'
import { chargingStationsPlaceField } from './place-fields.js'

/** Options of the {@link nobil} source. */
export interface NobilOptions {
  /** The NOBIL API key (apply at nobil.no). Without it the operation answers 502 upstream_not_configured. */
  apiKey?: string
}

/**
 * The built-in `nobil` source: public EV charging stations near a point, from Enova's NOBIL.
 * `builtInSources(env)` passes `ALLMENNING_NOBIL_API_KEY` as `apiKey`.
 *
 * @example
 * import { createGateway } from '@allmenning/core'
 * import { nobil } from '@allmenning/sources/nobil'
 * const gateway = createGateway({ sources: [nobil({ apiKey: process.env.ALLMENNING_NOBIL_API_KEY })] })
 * // GET /api/v1/kilder/nobil/find_charging_stations?lat=59.91&lon=10.75&radius_km=2
 */
export function nobil(options: NobilOptions = {}): SourceDefinition {
  const apiKey = options.apiKey?.trim() || undefined
  return defineSource({
    id: 'nobil',
    name: 'NOBIL charging stations (Enova)',
    description:
      "Enova's NOBIL register of public charging stations for electric vehicles in Norway: where they are, their connectors and capacity, and live availability where the operator reports it. Needs a NOBIL API key.",
    documentation: 'https://info.nobil.no/api',
    topic: 'energy',
    keywords: ['charging stations', 'ladestasjoner', 'elbil', 'EV', 'lading', 'nobil', 'enova'],
    synonyms: ['ladepunkt', 'hurtiglader', 'electric vehicle', 'charger', 'charge point', 'ladeplass', 'elbillading'],
    contentLanguages: ['no', 'en'],
    cacheTtlSeconds: 300,
    limit: { default: 25, max: 100 },
    upstreams: [nobilApi],
    notConfigured: apiKey ? [] : [{ configure: NOBIL_KEY_VARIABLE }],
    // The operations' code is imported when a request first reads it (see deferOperations).
    operations: deferOperations(
      { find_charging_stations: { operation: 'findChargingStations', placeField: chargingStationsPlaceField } },
      async () => (await import('./operations.js')).nobilOperations(apiKey),
    ),
  })
}
export { nobilApi, NOBIL_KEY_VARIABLE } from './nobil-upstream.js'
