import * as v from 'valibot'
import { defineOperation, rankByName } from '@allmenning/core/source'
import { nearest } from '../shared/nearest.js'
import { radiusKmParameter } from '../shared/radius-parameter.js'
import { pointParameters } from '../shared/wgs84-point.js'
import { trainStationsPlaceField } from './place-fields.js'
import { stationOutput, stationSchema } from './station-output.js'
import { STATIONS } from './stations.js'

const nearbySchema = v.object({
  ...stationSchema.entries,
  distance_km: v.pipe(v.number(), v.description('Distance from lat/lon in kilometres')),
})

const TABLE_NOTE =
  "The stations are Bane NOR's station codes with their names and positions from Entur's National Stop Register (NLOD 2.0, the export of June 2019), plus the Alnabru freight terminal; no upstream is called."

/**
 * `list_stations`: the station table, by name or code, or all of it.
 *
 * @example
 * const listStations = createListStations()
 */
export function createListStations() {
  return defineOperation({
    description: `Railway stations with Bane NOR's station codes (the station_id get_station_board takes), their names and WGS84 positions: those whose name or code matches query, best match first, or every station when query is left out. ${TABLE_NOTE}`,
    parameters: {
      query: v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.maxLength(100),
          v.description('A station name or code, e.g. Skøyen, nati, OSL; every station when left out'),
        ),
      ),
    },
    output: v.object({ stations: v.array(stationSchema) }),
    list: 'stations',
    cacheTtlSeconds: 86_400,
    canonicalFieldAliases: { name: ['stations[].name'] },
    entities: (data) => data.stations.map((s) => ({ type: 'train_station', id: s.id, name: s.name })),
    async run(params) {
      const query = params.query ?? ''
      if (query === '') return { data: { stations: STATIONS.map(stationOutput) } }
      const ranked = rankByName(query, STATIONS, (s) => ({ codes: [s.code], names: [s.name] }))
      return { data: { stations: ranked.map(({ item }) => stationOutput(item)) } }
    },
  })
}

/**
 * `find_stations_nearby`: the stations within radius_km of a point, nearest first (the place field `train_stations`).
 *
 * @example
 * const findStationsNearby = createFindStationsNearby()
 */
export function createFindStationsNearby() {
  return defineOperation({
    description: `Railway stations within radius_km of a point, nearest first, each with Bane NOR's station code for get_station_board. ${TABLE_NOTE}`,
    parameters: {
      ...pointParameters(4),
      radius_km: radiusKmParameter({ fallback: 5, max: 100 }),
    },
    output: v.object({ stations: v.array(nearbySchema) }),
    list: 'stations',
    placeField: trainStationsPlaceField,
    cacheTtlSeconds: 86_400,
    canonicalFieldAliases: { name: ['stations[].name'] },
    entities: (data) => data.stations.map((s) => ({ type: 'train_station', id: s.id, name: s.name })),
    async run(params) {
      const found = nearest({ lat: params.lat, lon: params.lon }, STATIONS, params.radius_km, (s) => s)
      return {
        data: { stations: found.map(({ item, distanceKm }) => ({ ...stationOutput(item), distance_km: distanceKm })) },
      }
    },
  })
}
