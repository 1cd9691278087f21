import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import { defineOperation, upstreamNotConfigured } from '@allmenning/core/source'
import { distanceKm, pointParameters } from '../shared/wgs84-point.js'
import type { RequestBudget } from '../shared/request-budget.js'
import { frostGet, readSensorSystems } from './frost-answers.js'
import { FROST_CLIENT_ID_VARIABLE, frostApi } from './frost-upstream.js'
import { inCounty, inMunicipality, namedLike } from './station-filters.js'
import { SOURCES_PATH, STATION_LIST_QUERY, toStation, type FrostStation, type StationList } from './station-list.js'
import { stationRow, stationRowEntries } from './station-rows.js'

const point = pointParameters(3)
const place = (what: string, example: string) =>
  v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(60), v.description(`${what}, e.g. ${example}`)))

const invalid = (parameter: string, problem: string, rule: string) =>
  new GatewayError(400, 'invalid_parameter', `Invalid parameter: ${parameter} ${problem}`, {
    details: [{ parameter, problem, rule }],
  })

/** What Frost's own name search may be given: no wildcards or separators of the client's own. */
const NAME_PATTERN = /^[\p{L}\p{N} .'()-]+$/u

/**
 * Builds `find_stations` with the deployment's Frost client id (or none) and the source's
 * station register.
 *
 * @example
 * const findStations = createFindStations(clientId, createStationList(clientId, frostRequestBudget), frostRequestBudget)
 * // GET /api/v1/kilder/frost/find_stations?municipality=Oslo&limit=100
 */
export function createFindStations(
  clientId: string | undefined,
  stations: StationList | undefined,
  budget: RequestBudget,
) {
  return defineOperation({
    description:
      "MET Norway's weather stations in use (Frost's SensorSystem register), found by municipality (0301, 301 or Oslo), " +
      'county (03, 3 or Oslo), name or id (Blindern, SN18700), or around a point (lat/lon, nearest first, within radius_km ' +
      'when given), the filters combined. Each row has the station id that get_latest_observations takes, its place and ' +
      `height. Needs a Frost client id (${FROST_CLIENT_ID_VARIABLE}); without one the answer is a 502 upstream_not_configured.`,
    parameters: {
      municipality: place('Municipality number (0301 or 301) or name', 'Oslo'),
      county: place('County number (03 or 3) or name', '03'),
      name: v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.minLength(2),
          v.maxLength(60),
          v.regex(NAME_PATTERN, 'must be letters, digits, spaces, dots, hyphens or brackets'),
          v.description('Part of the station name or short name, or its id, e.g. Blindern or SN18700'),
        ),
      ),
      lat: v.optional(point.lat),
      lon: v.optional(point.lon),
      radius_km: v.optional(
        v.pipe(
          v.number(),
          v.gtValue(0, 'must be greater than 0'),
          v.maxValue(500),
          v.description(
            'With lat/lon: only stations within this many kilometres; left out, the nearest at any distance',
          ),
        ),
      ),
    },
    limit: { default: 50, max: 1000 },
    output: v.array(v.object(stationRowEntries)),
    canonicalFieldAliases: { name: ['[].name'], latitude: ['[].lat'], longitude: ['[].lon'] },
    shapeNote:
      'data is a bare list, as the public gateway answers, each row with the fields its clients read (id, name, short_name, ' +
      'lat, lon, masl, valid_from) and county, municipality, wmo_id beside them.',
    // Stations open and close a few times a year; the register itself is kept for 12 hours.
    cacheTtlSeconds: 3600,

    async run(params, ctx) {
      if ((params.lat === undefined) !== (params.lon === undefined)) {
        const missing = params.lat === undefined ? 'lat' : 'lon'
        throw invalid(missing, 'is required together with lat and lon', 'required')
      }
      if (params.radius_km !== undefined && params.lat === undefined)
        throw invalid('radius_km', 'needs lat and lon', 'required')
      const client = ctx.upstream(frostApi)
      if (!clientId || !stations)
        throw upstreamNotConfigured(
          client,
          FROST_CLIENT_ID_VARIABLE,
          `needs a client id: set ${FROST_CLIENT_ID_VARIABLE}`,
        )

      const onlyName =
        params.name !== undefined &&
        params.municipality === undefined &&
        params.county === undefined &&
        params.lat === undefined
      let list: FrostStation[]
      let license: string | null
      let sourceApi: string | undefined
      const held = stations.peek()
      if (onlyName && !held) {
        // A name alone (what the entity search sends) is asked of Frost's own name search, one short call,
        // rather than reading the whole register first.
        const { body, url } = await frostGet(
          client,
          SOURCES_PATH,
          { ...STATION_LIST_QUERY, name: `*${params.name}*` },
          clientId,
          budget,
        )
        const read = body === null ? { stations: [], license: null } : readSensorSystems(body, client)
        const now = Date.now()
        list = read.stations.map((s) => toStation(s, now)).filter((s): s is FrostStation => s !== null)
        license = read.license
        sourceApi = url
      } else {
        // load() answers from memory while the register is fresh, and refreshes it in the background once it is not.
        const register = await stations.load(client)
        list = register.stations
        license = register.license
        sourceApi = client.url(SOURCES_PATH, STATION_LIST_QUERY)
      }

      const filters = [
        params.municipality !== undefined ? inMunicipality(params.municipality) : undefined,
        params.county !== undefined ? inCounty(params.county) : undefined,
        params.name !== undefined ? namedLike(params.name) : undefined,
      ].filter((f) => f !== undefined)
      const matching = list.filter((s) => filters.every((f) => f(s)))

      let rows
      if (params.lat !== undefined && params.lon !== undefined) {
        const center = { lat: params.lat, lon: params.lon }
        rows = matching
          .filter((s) => s.lat !== null && s.lon !== null)
          .map((s) => ({ s, d: Math.round(distanceKm(center, { lat: s.lat!, lon: s.lon! }) * 1000) / 1000 }))
          .filter(({ d }) => params.radius_km === undefined || d <= params.radius_km)
          .sort((a, b) => a.d - b.d)
          .map(({ s, d }) => stationRow(s, d))
      } else {
        rows = matching.map((s) => stationRow(s, null))
      }
      return {
        data: rows,
        ...(sourceApi ? { sourceApi } : {}),
        rawValues: { stations_in_frost_answer: list.length, ...(license ? { license } : {}) },
      }
    },
  })
}
