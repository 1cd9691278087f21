import { deferEntitySearch, deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import type { RequestBudget } from '../shared/request-budget.js'
import { FROST_CLIENT_ID_VARIABLE, frostApi, frostRequestBudget } from './frost-upstream.js'
import { weatherStationsPlaceField } from './place-fields.js'
import type { StationList } from './station-list.js'

/** Options of the {@link frost} source. */
export interface FrostOptions {
  /** The Frost client id (free, at frost.met.no). Without it the operations answer 502 upstream_not_configured. */
  clientId?: string
  /**
   * The request budget Frost calls take their turn in. By default one budget of 60 requests a
   * minute is shared by every `frost()` source in the process.
   */
  requestBudget?: RequestBudget
}

/**
 * The built-in `frost` source: MET Norway's weather stations and their latest observations,
 * from the Frost API. `builtInSources(env)` passes `ALLMENNING_FROST_CLIENT_ID` as `clientId`.
 *
 * @example
 * import { createGateway } from '@allmenning/core'
 * import { frost } from '@allmenning/sources/frost'
 * const gateway = createGateway({ sources: [frost({ clientId: process.env.ALLMENNING_FROST_CLIENT_ID })] })
 * // GET /api/v1/kilder/frost/find_stations?municipality=Oslo&limit=100
 */
export function frost(options: FrostOptions = {}): SourceDefinition {
  const clientId = options.clientId?.trim() || undefined
  const budget = options.requestBudget ?? frostRequestBudget
  // One register per source, shared by its operations and its entity search, made (its code
  // imported) when either is first loaded: a cold start evaluates none of it.
  let stations: Promise<StationList | undefined> | undefined
  const stationList = () =>
    (stations ??= clientId
      ? import('./station-list.js').then(({ createStationList }) => createStationList(clientId, budget))
      : Promise.resolve(undefined))
  return defineSource({
    id: 'frost',
    name: 'MET Norway Frost: weather stations and observations',
    description:
      "MET Norway's Frost API: the weather stations in use in Norway (where they are, how high, since when) found by " +
      'municipality, county, name or point, and their latest observed temperature, wind, humidity, precipitation and ' +
      'pressure. Needs a free Frost client id.',
    documentation: 'https://frost.met.no/index.html',
    topic: 'weather',
    keywords: [
      'weather stations',
      'værstasjoner',
      'observations',
      'observasjoner',
      'frost',
      'met',
      'temperature',
      'temperatur',
    ],
    synonyms: [
      'målestasjon',
      'meteorologisk institutt',
      'met.no',
      'vind',
      'wind',
      'nedbør',
      'precipitation',
      'klima',
      'climate',
    ],
    contentLanguages: ['no', 'en'],
    cacheTtlSeconds: 600,
    limit: { default: 50, max: 1000 },
    upstreams: [frostApi],
    notConfigured: clientId ? [] : [{ configure: FROST_CLIENT_ID_VARIABLE }],
    entityTypes: { weather_station: { operation: 'get_latest_observations', parameter: 'station_id' } },
    entitySearch: deferEntitySearch(
      async () => (await import('./entity-search.js')).frostEntitySearch(await stationList()),
      {
        mayRecognize: (text) => /^SN\d{2,8}$/i.test(text.trim()),
      },
    ),
    // The operations' code is imported when a request first reads it (see deferOperations).
    operations: deferOperations(
      {
        find_stations: 'findStations',
        get_latest_observations: 'getLatestObservations',
        find_stations_nearby: { operation: 'findStationsNearby', placeField: weatherStationsPlaceField },
      },
      async () => {
        const [{ frostOperations }, list] = await Promise.all([import('./operations.js'), stationList()])
        return frostOperations(clientId, list, budget)
      },
    ),
  })
}
export { frostApi, frostRequestBudget, FROST_CLIENT_ID_VARIABLE } from './frost-upstream.js'
