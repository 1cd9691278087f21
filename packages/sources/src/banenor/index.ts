import { deferEntitySearch, deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import { BANENOR_SUBSCRIPTION_KEY_VARIABLE, banenorSiriEt } from './banenor-upstream.js'
import { trainStationsPlaceField } from './place-fields.js'

/** Options of the {@link banenor} source. */
export interface BanenorOptions {
  /**
   * The subscription key of Bane NOR's API portal for its SIRI ET API, sent as
   * `Ocp-Apim-Subscription-Key`. Without it `get_station_board` answers 502
   * upstream_not_configured; the station operations need none. Never shown in an answer, a log
   * line or an error.
   */
  subscriptionKey?: string
  /**
   * The RequestorRef the SIRI requests name the caller by (free text, as Bane NOR's clients
   * choose it); `allmenning` when left out. `builtInSources(env)` reads `ALLMENNING_BANENOR_REQUESTOR_REF`.
   */
  requestorRef?: string
}

/**
 * The built-in `banenor` source: live station boards (passenger and freight trains) from Bane
 * NOR's real-time train information, SIRI ET, which needs a subscription key; and Bane NOR's
 * station codes with names and positions, by name, code or point, which need none.
 * `builtInSources(env)` passes `ALLMENNING_BANENOR_SUBSCRIPTION_KEY` as `subscriptionKey` and
 * `ALLMENNING_BANENOR_REQUESTOR_REF` as `requestorRef`.
 *
 * @example
 * import { createGateway } from '@allmenning/core'
 * import { banenor } from '@allmenning/sources/banenor'
 * const gateway = createGateway({ sources: [banenor({ subscriptionKey: process.env.ALLMENNING_BANENOR_SUBSCRIPTION_KEY })] })
 * // GET /api/v1/kilder/banenor/get_station_board?station_id=OSL&minutes_ahead=60
 * // GET /api/v1/kilder/banenor/list_stations?query=Skøyen
 */
export function banenor(options: BanenorOptions = {}): SourceDefinition {
  const credentials = {
    subscriptionKey: options.subscriptionKey?.trim() || undefined,
    requestorRef: options.requestorRef,
  }
  return defineSource({
    id: 'banenor',
    name: 'Train station boards (Bane NOR)',
    description:
      "Bane NOR's real-time train information (SIRI ET): live boards of the trains, passenger and freight, leaving or arriving at a station, with aimed and expected times, track, cancellations, operator and line (needs a Bane NOR subscription key); and Bane NOR's station codes with each station's name and position, by name, code or near a point.",
    documentation: 'https://www.banenor.no/',
    topic: 'transport',
    keywords: [
      'train',
      'tog',
      'railway',
      'jernbane',
      'station board',
      'avgangstavle',
      'departures',
      'avganger',
      'bane nor',
      'freight',
      'godstog',
    ],
    synonyms: [
      'togtider',
      'sanntid',
      'stasjon',
      'jernbanestasjon',
      'ankomster',
      'arrivals',
      'forsinkelse',
      'innstilt',
      'cancelled',
      'siri',
      'vy',
      'cargonet',
      'flytoget',
    ],
    contentLanguages: ['no'],
    cacheTtlSeconds: 30,
    limit: { default: 50, max: 200 },
    upstreams: [banenorSiriEt],
    notConfigured: credentials.subscriptionKey
      ? []
      : [{ configure: BANENOR_SUBSCRIPTION_KEY_VARIABLE, operations: ['get_station_board'] }],
    entityTypes: { train_station: { operation: 'get_station_board', parameter: 'station_id' } },
    // The station table (369 stations) is imported when a search first needs it, as the
    // operations are; only a text shaped like a code (two to four letters) loads it to be recognized.
    entitySearch: deferEntitySearch(async () => (await import('./entity-search.js')).banenorEntitySearch, {
      mayRecognize: (text) => /^\p{L}{2,4}$/u.test(text.trim()),
    }),
    // The operations' code is imported when a request first reads it (see deferOperations).
    operations: deferOperations(
      {
        get_station_board: 'getStationBoard',
        list_stations: 'listStations',
        find_stations_nearby: { operation: 'findStationsNearby', placeField: trainStationsPlaceField },
      },
      async () => (await import('./operations.js')).banenorOperations(credentials),
    ),
  })
}
export { banenorSiriEt, BANENOR_REQUESTOR_REF_VARIABLE, BANENOR_SUBSCRIPTION_KEY_VARIABLE } from './banenor-upstream.js'
