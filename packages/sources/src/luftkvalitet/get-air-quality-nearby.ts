import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { distanceKm } from '../shared/wgs84-point.js'
import { airPoint } from './air-point.js'
import { metAirquality } from './met-airquality-upstream.js'
import { STATIONS_PATH, type StationList } from './station-list.js'
import { airStationsPlaceField } from './place-fields.js'

const text = (description: string) => v.pipe(v.nullable(v.string()), v.description(description))

/** One station in the `get_air_quality_nearby` answer. */
export const nearbyStation = v.object({
  station_id: v.pipe(v.string(), v.description('EoI code of the station, e.g. NO0057A; get_station_forecast takes it')),
  name: v.pipe(v.string(), v.description('Station name')),
  municipality: text('Municipality (kommune)'),
  municipality_number: text('Municipality number'),
  area: text('Part of the municipality (delområde)'),
  lat: v.pipe(v.number(), v.description('Latitude, WGS84')),
  lon: v.pipe(v.number(), v.description('Longitude, WGS84')),
  height_m: v.pipe(v.nullable(v.number()), v.description('Height of the station above sea level, metres')),
  distance_km: v.pipe(v.number(), v.description('Distance from the requested point (its cell), km, to 10 m')),
  // The public gateway's clients read its rows by NILU's field names; they stand beside the ones above.
  station: v.pipe(v.string(), v.description('The station name again (name), as the public gateway’s clients read it')),
  eoi: v.pipe(v.string(), v.description('The EoI code again (station_id), as the public gateway’s clients read it')),
  latitude: v.pipe(v.number(), v.description('Latitude again (lat), as the public gateway’s clients read it')),
  longitude: v.pipe(v.number(), v.description('Longitude again (lon), as the public gateway’s clients read it')),
  aqi_level: v.pipe(
    v.null(),
    v.description(
      'Always null: the public gateway filled it from NILU’s latest measurement, and NILU’s API now wants a key; ' +
        'get_station_forecast gives MET’s forecast index at the station',
    ),
  ),
  aqi_time: v.pipe(
    v.null(),
    v.description('Always null, as aqi_level: the time of a measurement this source does not have'),
  ),
})

/**
 * Builds `get_air_quality_nearby`: MET's air-quality stations nearest a point, nearest first.
 *
 * @example
 * const op = createGetAirQualityNearby(createStationList())
 * const { data } = await op.run({ lat: 59.914, lon: 10.752, radius_km: undefined, limit: 10, offset: 0 }, ctx)
 * // [{ station_id: 'NO0083A', name: 'RV 4, Aker sykehus', ..., distance_km: 1.93 }, ...]
 */
export function createGetAirQualityNearby(stations: StationList) {
  return defineOperation({
    description:
      'The air-quality measuring stations nearest a WGS84 point, nearest first, with their distance in km. The ' +
      "station list comes from MET Norway's air-quality forecast (the stations NILU and the municipalities run) and " +
      'is fetched once and searched locally. get_station_forecast gives the forecast at a station.',
    parameters: {
      ...airPoint,
      radius_km: v.optional(
        v.pipe(
          v.number(),
          v.minValue(0.1),
          v.maxValue(2000),
          v.description('Only stations within this many km; all stations when left out'),
        ),
      ),
    },
    output: v.array(nearbyStation),
    limit: { default: 10, max: 100 },
    placeField: airStationsPlaceField,
    cacheTtlSeconds: 3600,
    canonicalFieldAliases: { name: ['[].name'] },
    shapeNote:
      'data is a bare list, as the public gateway’s clients read it, with the fields they read (station, eoi, latitude, ' +
      'longitude, aqi_level, aqi_time). Its rows there are NILU’s latest measurements; NILU’s open API now wants a key, so ' +
      'these rows are MET’s station list (id, name, place, position, distance) and aqi_level and aqi_time are null; ' +
      'get_station_forecast gives the forecast per station.',

    async run(params, ctx) {
      const client = ctx.upstream(metAirquality)
      const list = await stations.load(client)
      const data = list
        .map((station) => ({
          ...station,
          distance_km: Math.round(distanceKm(params, station) * 100) / 100,
          station: station.name,
          eoi: station.station_id,
          latitude: station.lat,
          longitude: station.lon,
          aqi_level: null,
          aqi_time: null,
        }))
        .filter((station) => params.radius_km === undefined || station.distance_km <= params.radius_km)
        .sort((a, b) => a.distance_km - b.distance_km || a.name.localeCompare(b.name, 'nb'))
      return { data, sourceApi: client.url(STATIONS_PATH) }
    },

    entities: (data) =>
      data.map((station) => ({ type: 'air_quality_station', id: station.station_id, name: station.name })),
  })
}
