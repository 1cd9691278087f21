import * as v from 'valibot'
import { checkUpstreamShape, UpstreamError, type UpstreamClient } from '@allmenning/core/source'
import { MAX_AGE_DAYS, YR_BADETEMP_KEY_VARIABLE } from './badetemp-upstream.js'

const text = v.nullish(v.string())
const looseNumber = v.nullish(v.union([v.number(), v.string()]))

/** One measuring point with its latest reading, as `watertemperatures` and `nearestwatertemperatures` list them. */
const locationReading = v.looseObject({
  locationName: text,
  locationId: v.nullish(v.union([v.string(), v.number()])),
  position: v.nullish(v.looseObject({ lat: looseNumber, lon: looseNumber })),
  elevation: looseNumber,
  county: text,
  municipality: text,
  temperature: looseNumber,
  time: text,
  sourceDisplayName: text,
})

/** One reading of a point's series (`/locations/{id}/watertemperatures`). */
const reading = v.looseObject({ temperature: looseNumber, time: text })

/** A measuring point's latest reading, as this source keeps it. */
export interface WaterTemperature {
  locationId: string
  name: string | null
  lat: number
  lon: number
  elevation: number | null
  county: string | null
  municipality: string | null
  temperatureC: number
  time: string
  source: string | null
}

const numberOf = (value: unknown): number | null => {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value.replace(',', '.'))
        : Number.NaN
  return Number.isFinite(n) ? n : null
}

/**
 * The key's headers: Yr takes the key in an `apikey` header, never in the URL, so no URL an
 * answer names can show it.
 *
 * @example
 * client.getJson('/locations/0-10014/watertemperatures', { headers: apiKeyHeaders(apiKey) })
 */
export function apiKeyHeaders(apiKey: string): Record<string, string> {
  return { apikey: apiKey, Accept: 'application/json' }
}

/**
 * A refused key (401 or 403) as the 502 that names the variable to check.
 *
 * @example
 * if (res.status === 401) throw refusedKey(client, res.status)
 */
export function refusedKey(upstream: { id: string; name: string }, status: number): UpstreamError {
  return new UpstreamError(
    upstream,
    'status',
    `refused the configured API key (HTTP ${status}); check ${YR_BADETEMP_KEY_VARIABLE}`,
    status,
  )
}

/** Whether a reading is young enough for Yr's terms (at most five days old) at `now`. */
export const isRecent = (time: string, now: number) => now - Date.parse(time) <= MAX_AGE_DAYS * 86_400_000

/**
 * Reads a list of measuring points with their latest reading. A point without an id, a position
 * or a reading with a time is left out and counted in `unreadable`; one older than five days is
 * left out as Yr's terms ask and counted in `tooOld`. A body that is not a list is a 502.
 *
 * @example
 * const { temperatures } = readLocations(res.body, client, Date.now())
 */
export function readLocations(
  body: unknown,
  upstream: { id: string; name: string },
  now: number,
): { temperatures: WaterTemperature[]; unreadable: number; tooOld: number } {
  const list = checkUpstreamShape(upstream, v.array(v.unknown()), body, 'the bathing temperatures')
  const temperatures: WaterTemperature[] = []
  let unreadable = 0
  let tooOld = 0
  for (const item of list) {
    const parsed = v.safeParse(locationReading, item)
    const r = parsed.success ? parsed.output : undefined
    const lat = numberOf(r?.position?.lat)
    const lon = numberOf(r?.position?.lon)
    const temperature = numberOf(r?.temperature)
    const time = r?.time && !Number.isNaN(Date.parse(r.time)) ? r.time : null
    const id = r?.locationId === undefined || r?.locationId === null ? '' : String(r.locationId).trim()
    if (
      !r ||
      id === '' ||
      lat === null ||
      lon === null ||
      Math.abs(lat) > 90 ||
      Math.abs(lon) > 180 ||
      temperature === null ||
      time === null
    ) {
      unreadable++
      continue
    }
    if (!isRecent(time, now)) {
      tooOld++
      continue
    }
    temperatures.push({
      locationId: id,
      name: r.locationName ?? null,
      lat,
      lon,
      elevation: numberOf(r.elevation),
      county: r.county ?? null,
      municipality: r.municipality ?? null,
      temperatureC: temperature,
      time,
      source: r.sourceDisplayName ?? null,
    })
  }
  return { temperatures, unreadable, tooOld }
}

/**
 * Reads one point's series of readings, newest first, leaving out those older than five days.
 *
 * @example
 * const { readings } = readReadings(res.body, client, Date.now())
 */
export function readReadings(
  body: unknown,
  upstream: { id: string; name: string },
  now: number,
): { readings: { temperature_c: number; time: string }[]; tooOld: number; unreadable: number } {
  const list = checkUpstreamShape(upstream, v.array(v.unknown()), body, 'the readings')
  const readings: { temperature_c: number; time: string }[] = []
  let tooOld = 0
  let unreadable = 0
  for (const item of list) {
    const parsed = v.safeParse(reading, item)
    const temperature = parsed.success ? numberOf(parsed.output.temperature) : null
    const time =
      parsed.success && parsed.output.time && !Number.isNaN(Date.parse(parsed.output.time)) ? parsed.output.time : null
    if (temperature === null || time === null) unreadable++
    else if (!isRecent(time, now)) tooOld++
    else readings.push({ temperature_c: temperature, time })
  }
  readings.sort((a, b) => Date.parse(b.time) - Date.parse(a.time))
  return { readings, tooOld, unreadable }
}

/**
 * Calls Yr with the key in its header; a refused key is a 502 naming the variable.
 *
 * @example
 * const res = await getWithKey(client, '/locations/59.91,10.75/nearestwatertemperatures', apiKey)
 */
export async function getWithKey(client: UpstreamClient, path: string, apiKey: string, notFound: number[] = []) {
  const res = await client.getJson(path, { headers: apiKeyHeaders(apiKey), acceptStatus: [401, 403, ...notFound] })
  if (res.status === 401 || res.status === 403) throw refusedKey(client, res.status)
  return res
}
