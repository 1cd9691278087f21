import * as v from 'valibot'
import { checkUpstreamShape, type UpstreamClient } from '@allmenning/core/source'
import type { RequestBudget } from '../shared/request-budget.js'
import { frostGet, observationResponseShape } from './frost-answers.js'

/** Frost's observations. */
export const OBSERVATIONS_PATH = '/observations/v0.jsonld'

/** What `get_latest_observations` asks for when the client names no elements: the weather now. */
export const DEFAULT_ELEMENTS = [
  'air_temperature',
  'relative_humidity',
  'wind_speed',
  'wind_from_direction',
  'sum(precipitation_amount PT1H)',
  'air_pressure_at_sea_level',
] as const

/** How old a "latest" value may be: a day, so stations that report daily still answer. */
export const LATEST_MAX_AGE = 'P1D'

/** One latest observation as this source answers it. */
export interface LatestObservation {
  station_id: string
  sensor: string | null
  element: string
  value: number | null
  unit: string | null
  time: string
  level: { type: string | null; unit: string | null; value: number | null } | null
  time_resolution: string | null
  time_offset: string | null
  quality_code: number | null
}

/** An element id as Frost writes them: `air_temperature`, `sum(precipitation_amount PT1H)`, `max(wind_speed_of_gust PT1H)`. */
export const ELEMENT_PATTERN = /^[a-z][a-z0-9_]*(?:\([a-z][a-z0-9_]*(?: [A-Za-z0-9]+)*\))?$/

const numberOf = (value: unknown): number | null => {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN
  return Number.isFinite(n) ? n : null
}

/** Frost's `SN18700:0` is station SN18700, sensor 0. */
const splitSourceId = (sourceId: string) => {
  const [station, sensor] = sourceId.split(':')
  return { station: station!, sensor: sensor ?? null }
}

/**
 * Reads an ObservationResponse into rows, newest first within each station and element, with
 * sensor 0 (the station's main sensor) before others at the same time.
 *
 * @example
 * readLatest(body, client) // [{ station_id: 'SN18700', element: 'air_temperature', value: 3.4, unit: 'degC', ... }]
 */
export function readLatest(
  body: unknown,
  upstream: { id: string; name: string },
): { rows: LatestObservation[]; license: string | null } {
  const answer = checkUpstreamShape(upstream, observationResponseShape, body, 'the observations')
  const rows: LatestObservation[] = []
  for (const item of answer.data) {
    const { station, sensor } = splitSourceId(item.sourceId)
    for (const o of item.observations) {
      rows.push({
        station_id: station,
        sensor,
        element: o.elementId,
        value: numberOf(o.value),
        unit: o.unit ?? null,
        time: item.referenceTime,
        level: o.level
          ? { type: o.level.levelType ?? null, unit: o.level.unit ?? null, value: o.level.value ?? null }
          : null,
        time_resolution: o.timeResolution ?? null,
        time_offset: o.timeOffset ?? null,
        quality_code: o.qualityCode ?? null,
      })
    }
  }
  rows.sort(
    (a, b) =>
      a.station_id.localeCompare(b.station_id) ||
      a.element.localeCompare(b.element) ||
      Date.parse(b.time) - Date.parse(a.time) ||
      (a.sensor ?? '').localeCompare(b.sensor ?? ''),
  )
  return { rows, license: answer.license ?? null }
}

/**
 * The latest values of `elements` at the stations, in one Frost call (`referencetime=latest`,
 * at most a day old). No data (Frost's 404) is an empty list.
 *
 * @example
 * const { rows } = await fetchLatest(client, clientId, frostRequestBudget, ['SN18700'], ['air_temperature'])
 */
export async function fetchLatest(
  client: UpstreamClient,
  clientId: string,
  budget: RequestBudget,
  stationIds: readonly string[],
  elements: readonly string[],
): Promise<{ rows: LatestObservation[]; license: string | null; url: string }> {
  const query = {
    sources: stationIds.join(','),
    elements: elements.join(','),
    referencetime: 'latest',
    maxage: LATEST_MAX_AGE,
  }
  const { body, url } = await frostGet(client, OBSERVATIONS_PATH, query, clientId, budget)
  if (body === null) return { rows: [], license: null, url }
  return { ...readLatest(body, client), url }
}

/** The valibot schema of one latest observation row, for the operations' output. */
export const latestObservationSchema = v.object({
  station_id: v.pipe(v.string(), v.description('Frost station id, e.g. SN18700')),
  sensor: v.pipe(
    v.nullable(v.string()),
    v.description("The station's sensor (Frost's SN18700:0 is sensor 0, the main one)"),
  ),
  element: v.pipe(
    v.string(),
    v.description("Frost's element id, e.g. air_temperature, sum(precipitation_amount PT1H)"),
  ),
  value: v.pipe(v.nullable(v.number()), v.description('The value')),
  unit: v.pipe(
    v.nullable(v.string()),
    v.description('Its unit as Frost writes it: degC, percent, m/s, degrees, mm, hPa'),
  ),
  time: v.pipe(v.string(), v.description('When it was observed (the reference time), ISO 8601 in UTC')),
  level: v.pipe(
    v.nullable(v.object({ type: v.nullable(v.string()), unit: v.nullable(v.string()), value: v.nullable(v.number()) })),
    v.description('Where it was measured, e.g. height_above_ground 2 m'),
  ),
  time_resolution: v.pipe(v.nullable(v.string()), v.description('ISO 8601 period the value covers, e.g. PT1H, PT10M')),
  time_offset: v.pipe(v.nullable(v.string()), v.description("Frost's time offset of the series, e.g. PT0H")),
  quality_code: v.pipe(
    v.nullable(v.number()),
    v.description("Frost's quality code: 0 checked and good, higher is less certain"),
  ),
})
