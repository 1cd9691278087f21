import * as v from 'valibot'
import { checkUpstreamShape, UpstreamError, type QueryValues, type UpstreamClient } from '@allmenning/core/source'
import type { RequestBudget } from '../shared/request-budget.js'
import { FROST_CLIENT_ID_VARIABLE, frostAuthorization } from './frost-upstream.js'

const text = v.nullish(v.string())
const number = v.nullish(v.number())

/** The envelope of every Frost JSON-LD answer: `@type`, the licence, the items in `data`. */
const envelope = {
  '@type': v.optional(v.string()),
  license: text,
  createdAt: text,
  totalItemCount: number,
  currentItemCount: number,
}

/** One `SensorSystem` of `/sources/v0.jsonld`; `wmoId` and `wigosId` only on some. */
export const sensorSystemShape = v.looseObject({
  '@type': v.optional(v.string()),
  id: v.string(),
  name: text,
  shortName: text,
  country: text,
  countryCode: text,
  wmoId: number,
  geometry: v.nullish(v.looseObject({ '@type': v.optional(v.string()), coordinates: v.nullish(v.array(v.number())) })),
  masl: number,
  validFrom: text,
  validTo: text,
  county: text,
  countyId: number,
  municipality: text,
  municipalityId: number,
  stationHolders: v.nullish(v.array(v.string())),
})

/** `/sources/v0.jsonld`'s answer (`@type` SourceResponse). */
export const sourceResponseShape = v.looseObject({ ...envelope, data: v.array(v.looseObject({ id: v.string() })) })

const observationShape = v.looseObject({
  elementId: v.string(),
  value: v.nullish(v.union([v.number(), v.string()])),
  unit: text,
  level: v.nullish(v.looseObject({ levelType: text, unit: text, value: number })),
  timeOffset: text,
  timeResolution: text,
  qualityCode: number,
})

/** `/observations/v0.jsonld`'s answer (`@type` ObservationResponse): per source and time, the observations. */
export const observationResponseShape = v.looseObject({
  ...envelope,
  data: v.array(
    v.looseObject({ sourceId: v.string(), referenceTime: v.string(), observations: v.array(observationShape) }),
  ),
})

export type SensorSystem = v.InferOutput<typeof sensorSystemShape>
export type ObservationResponse = v.InferOutput<typeof observationResponseShape>

/** Frost's `ErrorResponse`: `{error: {code, message, reason}}`, sent as text/plain. */
const errorShape = v.looseObject({ error: v.looseObject({ code: number, message: text, reason: text }) })

/** What one Frost call gave: the body, or null when Frost found nothing (its 404 "No data found", or 412). */
export interface FrostAnswer {
  body: unknown | null
  url: string
}

/**
 * Calls Frost with the client id as HTTP Basic user, after its turn in the request budget. A
 * 404 or 412 (Frost's "nothing matches") is `body: null`; a refused id is a 502 naming Frost and
 * the variable; a 400 is a 502 with Frost's reason. The id travels only in the header, so no
 * URL, answer or log line ever shows it.
 *
 * @example
 * const { body } = await frostGet(client, '/sources/v0.jsonld', { types: 'SensorSystem' }, clientId, frostRequestBudget)
 */
export async function frostGet(
  client: UpstreamClient,
  path: string,
  query: QueryValues,
  clientId: string,
  budget: RequestBudget,
): Promise<FrostAnswer> {
  await budget.take(client)
  const res = await client.getJson(path, {
    query,
    headers: { Authorization: frostAuthorization(clientId), Accept: 'application/json' },
    acceptStatus: [400, 401, 403, 404, 412],
  })
  if (res.status === 404 || res.status === 412) return { body: null, url: res.url }
  if (res.status === 401 || res.status === 403) {
    throw new UpstreamError(
      client,
      'status',
      `refused the configured client id (HTTP ${res.status}); check ${FROST_CLIENT_ID_VARIABLE}`,
      res.status,
    )
  }
  if (res.status === 400) {
    const parsed = v.safeParse(errorShape, res.body)
    const reason = parsed.success ? (parsed.output.error.reason ?? parsed.output.error.message ?? '') : ''
    throw new UpstreamError(
      client,
      'status',
      `refused the request (HTTP 400)${reason ? `: ${reason.slice(0, 200)}` : ''}`,
      400,
    )
  }
  return { body: res.body, url: res.url }
}

/**
 * The stations of a `/sources` answer: each SensorSystem checked on its own, so one odd
 * station is left out rather than failing the list; an envelope that is not Frost's is a 502.
 *
 * @example
 * const { stations, license } = readSensorSystems(body, client)
 */
export function readSensorSystems(
  body: unknown,
  upstream: { id: string; name: string },
): { stations: SensorSystem[]; license: string | null; skipped: number } {
  const answer = checkUpstreamShape(upstream, sourceResponseShape, body, 'the station list')
  const stations: SensorSystem[] = []
  let skipped = 0
  for (const item of answer.data) {
    const parsed = v.safeParse(sensorSystemShape, item)
    if (parsed.success && (parsed.output['@type'] ?? 'SensorSystem') === 'SensorSystem') stations.push(parsed.output)
    else skipped++
  }
  return { stations, license: answer.license ?? null, skipped }
}

/**
 * A station's position: Frost's GeoJSON `[lon, lat]`, or null where it has none or a
 * nonsensical one.
 *
 * @example
 * stationPosition({ geometry: { coordinates: [10.72, 59.9423] } }) // { lat: 59.9423, lon: 10.72 }
 */
export function stationPosition(station: Pick<SensorSystem, 'geometry'>): { lat: number; lon: number } | null {
  const [lon, lat] = station.geometry?.coordinates ?? []
  if (typeof lat !== 'number' || typeof lon !== 'number') return null
  if (lat < -90 || lat > 90 || lon < -180 || lon > 180 || (lat === 0 && lon === 0)) return null
  return { lat, lon }
}
