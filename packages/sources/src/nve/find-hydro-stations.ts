import * as v from 'valibot'
import { defineOperation, upstreamNotConfigured } from '@allmenning/core/source'
import { nearest } from '../shared/nearest.js'
import { radiusKmParameter } from '../shared/radius-parameter.js'
import { pointParameters } from '../shared/wgs84-point.js'
import { DISCHARGE, parameterNameEn, WATER_LEVEL } from './hydro-parameters.js'
import {
  laterOf,
  STATIONS_PATH,
  stationListQuery,
  type HydroStation,
  type HydroStationList,
} from './hydro-station-list.js'
import type { LatestObservations, LatestValue } from './latest-observations.js'
import { HYDAPI_KEY_VARIABLE, nveHydapi } from './nve-upstreams.js'
import { hydroStationsPlaceField } from './place-fields.js'

/** How recent a station's newest data must be for `has_recent_data`. */
export const RECENT_DAYS = 7

const DAY_MS = 86_400_000

const nullableText = (description: string) => v.pipe(v.nullable(v.string()), v.description(description))

const latestValue = (what: string) =>
  v.pipe(
    v.nullable(
      v.object({
        value: v.pipe(v.nullable(v.number()), v.description('The value; null where HydAPI has none for that time')),
        unit: nullableText('Its unit, as HydAPI gives it'),
        observed_at: v.pipe(v.string(), v.description('When it was measured, ISO 8601 in UTC')),
      }),
    ),
    v.description(
      `The latest ${what} as measured (HydAPI's instantaneous series); null when the station measures none, or has no value`,
    ),
  )

const seriesSchema = v.object({
  name: nullableText(
    "NVE's name of what the series measures, in Norwegian (Vannstand, Vannføring, Vanntemperatur, ...)",
  ),
  name_en: nullableText('The same in English, where this source knows it'),
  parameter: v.pipe(
    v.number(),
    v.description("HydAPI's parameter id: 1000 water level, 1001 discharge, 1003 water temperature, ..."),
  ),
  unit: nullableText('Unit of its values, e.g. m, m³/s, °C'),
  first_data_at: nullableText('When its data begins'),
  latest_data_at: nullableText('When its newest data is from'),
})

const stationSchema = v.object({
  station_id: v.pipe(v.string(), v.description("NVE's station number, e.g. 2.268.0 (area.station.part)")),
  station_name: nullableText('Name of the station'),
  river: nullableText('The river or watercourse it measures'),
  latitude: v.pipe(v.number(), v.description('WGS84 latitude')),
  longitude: v.pipe(v.number(), v.description('WGS84 longitude')),
  masl: v.pipe(v.nullable(v.number()), v.description('Metres above sea level')),
  municipality: nullableText('Municipality'),
  municipality_number: nullableText('Municipality number'),
  county: nullableText('County'),
  status: nullableText("NVE's status of the station: Aktiv (active) or Nedlagt (closed)"),
  distance_km: v.pipe(v.number(), v.description('Distance from lat/lon in kilometres')),
  latest_observation_at: nullableText('When its newest data, in any series, is from'),
  has_recent_data: v.pipe(v.boolean(), v.description(`True when it has data from the last ${RECENT_DAYS} days`)),
  series: v.pipe(v.array(seriesSchema), v.description('What it measures, one entry per parameter')),
  water_level: latestValue('water level (stage, parameter 1000)'),
  discharge: latestValue('discharge (parameter 1001)'),
})

const toLatest = (value: LatestValue | undefined) =>
  value ? { value: value.value, unit: value.unit, observed_at: value.observedAt } : null

/** The station as answered, its data times brought up to date by the latest values fetched. */
function stationRow(
  station: HydroStation,
  distanceKm: number,
  level: LatestValue | undefined,
  flow: LatestValue | undefined,
  recentSince: number,
) {
  const observed = (parameter: number) =>
    (parameter === WATER_LEVEL ? level?.observedAt : parameter === DISCHARGE ? flow?.observedAt : undefined) ?? null
  const series = station.series.map((s) => ({
    name: s.name,
    name_en: parameterNameEn(s.parameter),
    parameter: s.parameter,
    unit: s.unit,
    first_data_at: s.firstDataAt,
    latest_data_at: laterOf(s.latestDataAt, observed(s.parameter)),
  }))
  const latest = series.reduce<string | null>((at, s) => laterOf(at, s.latest_data_at), station.latestDataAt)
  return {
    station_id: station.id,
    station_name: station.name,
    river: station.river,
    latitude: station.lat,
    longitude: station.lon,
    masl: station.masl,
    municipality: station.municipality,
    municipality_number: station.municipalityNumber,
    county: station.county,
    status: station.status,
    distance_km: distanceKm,
    latest_observation_at: latest,
    has_recent_data: latest !== null && Date.parse(latest) >= recentSince,
    series,
    water_level: toLatest(level),
    discharge: toLatest(flow),
  }
}

/**
 * Builds `find_hydro_stations` with the deployment's HydAPI key (or none), the source's station
 * lists and its memo of latest observations.
 *
 * @example
 * const findHydroStations = createFindHydroStations(key, createHydroStationList(key), createLatestObservations(key))
 * // GET /api/v1/kilder/nve/find_hydro_stations?lat=59.91&lon=10.75&radius_km=20&has_recent_data=true&limit=100
 */
export function createFindHydroStations(
  apiKey: string | undefined,
  stations: HydroStationList | undefined,
  latest: LatestObservations | undefined,
  now: () => number = Date.now,
) {
  return defineOperation({
    description:
      "NVE's hydrological stations (HydAPI) within radius_km of a point, nearest first, with what each measures, when its newest " +
      'data is from, and the latest measured water level and discharge. has_recent_data=true (the default) keeps the stations ' +
      `with data from the last ${RECENT_DAYS} days: HydAPI's own "active" filter is unreliable for this (its Active=1 answers every ` +
      'station, most of them closed archive stations, and even a station marked Aktiv may have sent nothing for months), which ' +
      'is why clients filter on recent data. has_recent_data=false lists every station, closed ones included. Needs a HydAPI key ' +
      `(${HYDAPI_KEY_VARIABLE}); without one the answer is a 502 upstream_not_configured.`,
    parameters: {
      ...pointParameters(3),
      radius_km: radiusKmParameter({ fallback: 20, max: 200 }),
      has_recent_data: v.optional(
        v.pipe(
          v.boolean(),
          v.description(
            `true (the default): only stations with data from the last ${RECENT_DAYS} days; false: every station, closed archive stations too`,
          ),
        ),
        true,
      ),
    },
    limit: { default: 25, max: 100 },
    output: v.object({
      count: v.pipe(v.number(), v.description('Stations within the radius that match, before paging')),
      returned: v.pipe(v.number(), v.description('Stations on this page')),
      limit: v.pipe(v.number(), v.description('Most stations per page')),
      offset: v.pipe(v.number(), v.description('Stations skipped before this page')),
      truncated: v.pipe(v.boolean(), v.description('True when more stations match than this page holds')),
      radius_km: v.pipe(v.number(), v.description('The radius searched')),
      recent_since: v.pipe(
        v.string(),
        v.description(`The start of the last ${RECENT_DAYS} days, which has_recent_data counts from`),
      ),
      stations: v.array(stationSchema),
    }),
    list: 'stations',
    placeField: hydroStationsPlaceField,
    canonicalFieldAliases: {
      name: ['stations[].station_name'],
      latitude: ['stations[].latitude'],
      longitude: ['stations[].longitude'],
      timestamp: ['stations[].latest_observation_at'],
    },
    shapeNote:
      'data has the public gateway’s shape (stations with station_id, station_name, river, latitude, longitude, latest_observation_at, ' +
      'series[]{name, latest_data_at}, beside count, returned, limit, offset, has_more_results and truncated), so its clients work ' +
      'unchanged; the latest water level and discharge, distance_km and the station’s place stand beside them.',
    // Gauges report every ten minutes to an hour; the station list itself is kept for hours (see HydroStationList).
    cacheTtlSeconds: 600,

    async run(params, ctx) {
      const client = ctx.upstream(nveHydapi)
      if (!apiKey || !stations || !latest) throw upstreamNotConfigured(client, HYDAPI_KEY_VARIABLE)
      const recentSince = now() - RECENT_DAYS * DAY_MS
      const kind = params.has_recent_data ? 'active' : 'all'
      const { stations: list, skipped } = await stations.load(client, kind)
      const recent = (s: HydroStation) => s.latestDataAt !== null && Date.parse(s.latestDataAt) >= recentSince
      const candidates = params.has_recent_data ? list.filter(recent) : list
      const found = nearest({ lat: params.lat, lon: params.lon }, candidates, params.radius_km, (s) => s)
      const page = found.slice(params.offset, params.offset + params.limit)
      // Only the page's stations, and only those that measure the parameter as it happens:
      // at most one call per parameter and 50 stations.
      const measuring = (parameter: number) =>
        page
          .filter(({ item }) => item.series.some((s) => s.parameter === parameter && s.instantaneous))
          .map(({ item }) => item.id)
      const [levels, flows] = await Promise.all([
        latest.of(client, WATER_LEVEL, measuring(WATER_LEVEL)),
        latest.of(client, DISCHARGE, measuring(DISCHARGE)),
      ])
      const rows = page.map(({ item, distanceKm }) =>
        stationRow(item, distanceKm, levels.get(item.id), flows.get(item.id), recentSince),
      )
      const hasMore = params.offset + rows.length < found.length
      return {
        data: {
          count: found.length,
          returned: rows.length,
          limit: params.limit,
          offset: params.offset,
          truncated: hasMore,
          radius_km: params.radius_km,
          recent_since: new Date(recentSince).toISOString(),
          stations: rows,
        },
        page: { hasMore, total: found.length },
        sourceApi: client.url(STATIONS_PATH, stationListQuery(kind)),
        rawValues: {
          stations_from_hydapi: list.length,
          ...(skipped > 0 ? { stations_without_position_or_shape: skipped } : {}),
        },
      }
    },
  })
}
