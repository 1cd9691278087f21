import * as v from 'valibot'
import { defineOperation, upstreamNotConfigured } from '@allmenning/core/source'
import { nearest } from '../shared/nearest.js'
import { radiusKmParameter } from '../shared/radius-parameter.js'
import type { RequestBudget } from '../shared/request-budget.js'
import { pointParameters } from '../shared/wgs84-point.js'
import { FROST_CLIENT_ID_VARIABLE, frostApi } from './frost-upstream.js'
import { fetchLatest, type LatestObservation } from './latest-observations.js'
import { weatherStationsPlaceField } from './place-fields.js'
import { SOURCES_PATH, STATION_LIST_QUERY, type StationList } from './station-list.js'
import { stationRow, stationRowEntries } from './station-rows.js'

const AIR_TEMPERATURE = 'air_temperature'

/** The air temperature at 2 m from the main sensor, newest first (the rows come sorted so). */
function airTemperatureOf(rows: LatestObservation[], stationId: string) {
  const mine = rows.filter((r) => r.station_id === stationId && r.element === AIR_TEMPERATURE && r.value !== null)
  const best = mine.find((r) => r.level?.value === 2 || r.level === null) ?? mine[0]
  return best ? { value: best.value!, unit: best.unit, time: best.time } : null
}

/**
 * Builds `find_stations_nearby` with the deployment's Frost client id (or none): the place
 * field `weather_stations`.
 *
 * @example
 * const nearby = createFindStationsNearby(clientId, createStationList(clientId, frostRequestBudget), frostRequestBudget)
 * // GET /api/v1/kilder/frost/find_stations_nearby?lat=59.91&lon=10.75&radius_km=10
 */
export function createFindStationsNearby(
  clientId: string | undefined,
  stations: StationList | undefined,
  budget: RequestBudget,
) {
  return defineOperation({
    description:
      "MET Norway's weather stations within radius_km of a point, nearest first, each with its latest air temperature " +
      '(at most a day old; null where the station measures none), read for the whole page in one Frost call. Needs a Frost ' +
      `client id (${FROST_CLIENT_ID_VARIABLE}); without one the answer is a 502 upstream_not_configured.`,
    parameters: {
      ...pointParameters(3),
      radius_km: radiusKmParameter({ fallback: 10, max: 100 }),
    },
    limit: { default: 10, max: 100 },
    output: v.array(
      v.object({
        ...stationRowEntries,
        distance_km: v.pipe(v.number(), v.description('Distance from lat/lon in kilometres')),
        air_temperature: v.pipe(
          v.nullable(
            v.object({
              value: v.pipe(v.number(), v.description('Air temperature')),
              unit: v.pipe(v.nullable(v.string()), v.description('Its unit as Frost writes it: degC')),
              time: v.pipe(v.string(), v.description('When it was observed, ISO 8601 in UTC')),
            }),
          ),
          v.description('The latest air temperature at the station; null when it has none from the last day'),
        ),
      }),
    ),
    placeField: weatherStationsPlaceField,
    canonicalFieldAliases: {
      name: ['[].name'],
      latitude: ['[].lat'],
      longitude: ['[].lon'],
      timestamp: ['[].air_temperature.time'],
    },
    shapeNote:
      'data is a bare list of the rows find_stations answers, each with distance_km and its latest air_temperature.',
    // Temperatures are reported every 10 minutes to an hour.
    cacheTtlSeconds: 600,

    async run(params, ctx) {
      const client = ctx.upstream(frostApi)
      if (!clientId || !stations)
        throw upstreamNotConfigured(
          client,
          FROST_CLIENT_ID_VARIABLE,
          `needs a client id: set ${FROST_CLIENT_ID_VARIABLE}`,
        )
      const register = await stations.load(client)
      const found = nearest({ lat: params.lat, lon: params.lon }, register.stations, params.radius_km, (s) =>
        s.lat !== null && s.lon !== null ? { lat: s.lat, lon: s.lon } : null,
      )
      const page = found.slice(params.offset, params.offset + params.limit)
      const latest =
        page.length > 0
          ? await fetchLatest(
              client,
              clientId,
              budget,
              page.map(({ item }) => item.id),
              [AIR_TEMPERATURE],
            )
          : undefined
      const data = page.map(({ item, distanceKm }) => ({
        ...stationRow(item, distanceKm),
        distance_km: distanceKm,
        air_temperature: airTemperatureOf(latest?.rows ?? [], item.id),
      }))
      const license = latest?.license ?? register.license
      return {
        data,
        page: { hasMore: params.offset + page.length < found.length, total: found.length },
        sourceApi: client.url(SOURCES_PATH, STATION_LIST_QUERY),
        rawValues: { stations_in_frost_register: register.stations.length, ...(license ? { license } : {}) },
      }
    },
  })
}
