import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import { defineOperation, upstreamNotConfigured } from '@allmenning/core/source'
import type { RequestBudget } from '../shared/request-budget.js'
import { frostGet, readSensorSystems } from './frost-answers.js'
import { FROST_CLIENT_ID_VARIABLE, frostApi } from './frost-upstream.js'
import {
  DEFAULT_ELEMENTS,
  ELEMENT_PATTERN,
  fetchLatest,
  LATEST_MAX_AGE,
  latestObservationSchema,
} from './latest-observations.js'
import { SOURCES_PATH, toStation, type FrostStation, type StationList } from './station-list.js'
import { stationRow, stationRowEntries } from './station-rows.js'

/** Most elements one call may ask for. */
const MAX_ELEMENTS = 20

const invalid = (parameter: string, problem: string, rule: string) =>
  new GatewayError(400, 'invalid_parameter', `Invalid parameter: ${parameter} ${problem}`, {
    details: [{ parameter, problem, rule }],
  })

const { distance_km: _distance, ...stationEntries } = stationRowEntries

/**
 * Builds `get_latest_observations` with the deployment's Frost client id (or none).
 *
 * @example
 * const getLatest = createGetLatestObservations(clientId, createStationList(clientId, frostRequestBudget), frostRequestBudget)
 * // GET /api/v1/kilder/frost/get_latest_observations?station_id=SN18700&elements=air_temperature,wind_speed
 */
export function createGetLatestObservations(
  clientId: string | undefined,
  stations: StationList | undefined,
  budget: RequestBudget,
) {
  return defineOperation({
    description:
      "The latest observed values at one of MET Norway's weather stations (Frost, referencetime=latest, at most a day old): " +
      'air temperature, humidity, wind, precipitation and pressure unless elements names others, each with its time, unit ' +
      `and height. Needs a Frost client id (${FROST_CLIENT_ID_VARIABLE}); without one the answer is a 502 upstream_not_configured.`,
    parameters: {
      station_id: v.pipe(
        v.string(),
        v.trim(),
        v.regex(/^(?:SN)?\d{1,8}$/i, 'must be a Frost station id: SN followed by digits, e.g. SN18700'),
        v.transform((id: string) => `SN${id.replace(/^SN/i, '')}`),
        v.description('Frost station id, e.g. SN18700 (Oslo - Blindern); find_stations finds them'),
      ),
      elements: v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.minLength(1),
          v.maxLength(600),
          v.description(`Comma-separated Frost element ids; ${DEFAULT_ELEMENTS.join(', ')} when left out`),
        ),
      ),
    },
    output: v.object({
      station_id: v.pipe(v.string(), v.description('The station asked for')),
      station: v.pipe(
        v.nullable(v.object(stationEntries)),
        v.description('The station, from Frost’s register; null when it is not there'),
      ),
      elements: v.pipe(v.array(v.string()), v.description('The elements asked for')),
      max_age: v.pipe(v.string(), v.description('How old a latest value may be, ISO 8601 period')),
      observations: v.pipe(
        v.array(latestObservationSchema),
        v.description('The latest value per element and sensor, newest first'),
      ),
    }),
    list: 'observations',
    canonicalFieldAliases: { timestamp: ['observations[].time'] },
    // Most stations report every 10 minutes to an hour.
    cacheTtlSeconds: 300,

    async run(params, ctx) {
      const elements =
        params.elements === undefined
          ? [...DEFAULT_ELEMENTS]
          : params.elements
              .split(',')
              .map((e) => e.trim())
              .filter((e) => e !== '')
      const wrong = elements.find((e) => !ELEMENT_PATTERN.test(e))
      if (elements.length === 0 || wrong !== undefined) {
        throw invalid(
          'elements',
          `must be comma-separated Frost element ids such as air_temperature or sum(precipitation_amount PT1H)${wrong ? ` (not "${wrong.slice(0, 60)}")` : ''}`,
          'format',
        )
      }
      if (elements.length > MAX_ELEMENTS)
        throw invalid('elements', `names ${elements.length} elements; at most ${MAX_ELEMENTS}`, 'max_items')
      const client = ctx.upstream(frostApi)
      if (!clientId || !stations)
        throw upstreamNotConfigured(
          client,
          FROST_CLIENT_ID_VARIABLE,
          `needs a client id: set ${FROST_CLIENT_ID_VARIABLE}`,
        )

      const [station, latest] = await Promise.all([
        stationById(params.station_id, stations, client, clientId, budget),
        fetchLatest(client, clientId, budget, [params.station_id], elements),
      ])
      if (station === null && latest.rows.length === 0) {
        throw new GatewayError(404, 'entity_not_found', `Frost has no weather station ${params.station_id} in use`)
      }
      const { distance_km: _d, ...row } = station ? stationRow(station, null) : { distance_km: null }
      return {
        data: {
          station_id: params.station_id,
          station: station ? (row as Omit<ReturnType<typeof stationRow>, 'distance_km'>) : null,
          elements,
          max_age: LATEST_MAX_AGE,
          observations: latest.rows,
        },
        sourceApi: latest.url,
        rawValues: latest.license ? { license: latest.license } : {},
      }
    },
  })
}

/** The station from the register when it is in memory, else from Frost's register by id (a short call). */
async function stationById(
  id: string,
  stations: StationList,
  client: Parameters<typeof frostGet>[0],
  clientId: string,
  budget: RequestBudget,
): Promise<FrostStation | null> {
  const held = stations.peek()
  if (held) return held.stations.find((s) => s.id === id) ?? null
  const { body } = await frostGet(client, SOURCES_PATH, { ids: id }, clientId, budget)
  if (body === null) return null
  const found = readSensorSystems(body, client).stations.find((s) => s.id === id)
  return found ? toStation(found, Date.now()) : null
}
