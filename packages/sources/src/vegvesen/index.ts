import { deferEntitySearch, deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import { VEGVESEN_DATEX_PASSWORD_VARIABLE, VEGVESEN_DATEX_USERNAME_VARIABLE, vegvesenDatex } from './datex-upstream.js'
import { trafficMessagesPlaceField, trafficRegistrationPointsPlaceField } from './place-fields.js'
import { vegvesenTrafikkdata } from './trafikkdata-upstream.js'
import { hasDigit } from '../shared/has-digit.js'

/** Options of the {@link vegvesen} source. */
export interface VegvesenOptions {
  /**
   * The username Statens vegvesen issues for its DATEX II server (register on its DATEX page).
   * Without it, or without the password, `get_traffic_messages` answers 502 upstream_not_configured;
   * the traffic-data operations need neither.
   */
  datexUsername?: string
  /** The password that goes with `datexUsername`. Never shown in an answer, a log line or an error. */
  datexPassword?: string
}

/**
 * The built-in `vegvesen` source: Statens vegvesen's traffic registration points near a point,
 * in a county, on a road or by name, and their hourly and daily volumes, from the trafikkdata.no
 * GraphQL API (the list of points is fetched once a day and searched locally); and its traffic
 * messages near a point, from its DATEX II feed, which needs a username and password.
 * `builtInSources(env)` passes `ALLMENNING_VEGVESEN_DATEX_USERNAME` and
 * `ALLMENNING_VEGVESEN_DATEX_PASSWORD` as `datexUsername` and `datexPassword`.
 *
 * @example
 * import { createGateway } from '@allmenning/core'
 * import { vegvesen } from '@allmenning/sources/vegvesen'
 * const gateway = createGateway({
 *   sources: [vegvesen({ datexUsername: process.env.ALLMENNING_VEGVESEN_DATEX_USERNAME, datexPassword: process.env.ALLMENNING_VEGVESEN_DATEX_PASSWORD })],
 * })
 * // GET /api/v1/kilder/vegvesen/get_traffic_volume?registration_point_id=44656V72812&resolution=day&from=2026-11-01&to=2026-11-25
 * // GET /api/v1/kilder/vegvesen/get_traffic_messages?lat=59.91&lon=10.75&radius_km=20
 */
export function vegvesen(options: VegvesenOptions = {}): SourceDefinition {
  const datex = { username: options.datexUsername?.trim() || undefined, password: options.datexPassword || undefined }
  return defineSource({
    id: 'vegvesen',
    name: 'Traffic volumes and traffic messages (Statens vegvesen)',
    description:
      "Statens vegvesen's traffic registration points on Norway's roads (vehicles and bicycles), near a point, in a county, on a road or by name, and the volumes they counted hour by hour or day by day, from trafikkdata.no; and its traffic messages (road works, closures, accidents) near a point, from its DATEX II feed (needs a DATEX username and password).",
    documentation: 'https://trafikkdata.atlas.vegvesen.no/',
    topic: 'transport',
    keywords: [
      'traffic',
      'trafikk',
      'trafikkdata',
      'traffic volume',
      'trafikkmengde',
      'traffic messages',
      'trafikkmeldinger',
      'vegvesen',
      'road',
      'veg',
    ],
    synonyms: [
      'trafikkteller',
      'tellepunkt',
      'ådt',
      'aadt',
      'biler',
      'sykkel',
      'vei',
      'statens vegvesen',
      'traffic counter',
      'registration point',
      'vegarbeid',
      'veiarbeid',
      'stengt veg',
      'road works',
      'road closure',
      'ulykke',
      'datex',
    ],
    contentLanguages: ['no'],
    cacheTtlSeconds: 3600,
    limit: { default: 25, max: 200 },
    upstreams: [vegvesenTrafikkdata, vegvesenDatex],
    notConfigured: [
      ...(datex.username
        ? []
        : [{ configure: VEGVESEN_DATEX_USERNAME_VARIABLE, operations: ['get_traffic_messages'] }]),
      ...(datex.password
        ? []
        : [{ configure: VEGVESEN_DATEX_PASSWORD_VARIABLE, operations: ['get_traffic_messages'] }]),
    ],
    entityTypes: {
      traffic_registration_point: { operation: 'get_traffic_volume', parameter: 'registration_point_id' },
    },
    // Imported when a search first needs it; only a text with a digit (a point id) loads it to be
    // recognized.
    entitySearch: deferEntitySearch(async () => (await import('./entity-search.js')).vegvesenEntitySearch, {
      mayRecognize: hasDigit,
    }),
    // The operations' code is imported when a request first reads it (see deferOperations).
    operations: deferOperations(
      {
        find_registration_points_nearby: {
          operation: 'findRegistrationPointsNearby',
          placeField: trafficRegistrationPointsPlaceField,
        },
        find_registration_points_by_road: 'findRegistrationPointsByRoad',
        search_registration_points: 'searchRegistrationPoints',
        get_traffic_volume: 'getTrafficVolume',
        find_traffic_points: 'findTrafficPoints',
        get_traffic_messages: { operation: 'getTrafficMessages', placeField: trafficMessagesPlaceField },
      },
      async () => (await import('./operations.js')).vegvesenOperations(datex),
    ),
  })
}
export { vegvesenTrafikkdata } from './trafikkdata-upstream.js'
export { vegvesenDatex, VEGVESEN_DATEX_PASSWORD_VARIABLE, VEGVESEN_DATEX_USERNAME_VARIABLE } from './datex-upstream.js'
