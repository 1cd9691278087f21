import { readFileSync } from 'node:fs'
import { startFakeUpstream, type FakeUpstream } from '@allmenning/core/testing'

interface CompactDocument {
  geometry: { coordinates: number[] }
  properties: { meta: { updated_at: string }; timeseries: Array<{ time: string }> }
}

const compactFixture = readFileSync(new URL('./fixtures/compact-oslo.json', import.meta.url), 'utf8')

/** One request the fake received, with the headers MET's terms are about. */
export interface MetRequest {
  lat: string | null
  lon: string | null
  userAgent: string | undefined
  ifModifiedSince: string | undefined
}

/** A local Locationforecast, with the requests it saw and knobs for its caching headers. */
export interface FakeMetLocationforecast extends FakeUpstream {
  calls: MetRequest[]
  /** Seconds from now the next answers expire (negative: already expired). 1800 by default, as MET sends. */
  expiresInSeconds: number
}

/** The Last-Modified of every answer: MET's time of the forecast run. */
export const FORECAST_LAST_MODIFIED = 'Tue, 10 Feb 2026 08:31:47 GMT'
/** The first step of the recorded answer; the fake moves the whole forecast so that it starts at the current hour. */
const RECORDED_START = Date.parse('2026-02-10T08:00:00Z')

const isoSecond = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')

/**
 * The recorded compact answer moved in time so its first step is the current hour, as MET's
 * always is (its `updated_at` a little later), with the geometry of the point asked for. Only
 * the times and the coordinates change; it is written as MET writes it, indented by four spaces.
 */
function compactAnswer(lat: string, lon: string): string {
  const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000
  const shift = hour - RECORDED_START
  const moved = (time: string) => isoSecond(Date.parse(time) + shift)
  const doc = JSON.parse(compactFixture) as CompactDocument
  doc.geometry.coordinates = [Number(lon), Number(lat), 14]
  doc.properties.meta.updated_at = moved(doc.properties.meta.updated_at)
  for (const step of doc.properties.timeseries) step.time = moved(step.time)
  return `${JSON.stringify(doc, null, 4)}\n`
}

/**
 * Starts a local MET Norway Locationforecast 2.0 under `/weatherapi/locationforecast/2.0`.
 * It behaves as MET documents: 403 without a User-Agent or with more than four decimals in a
 * coordinate, 400 for a missing or out-of-range coordinate, `Expires` half an hour ahead and
 * `Last-Modified` on every answer, and 304 to a matching `If-Modified-Since`.
 */
export async function startFakeMetLocationforecast(): Promise<FakeMetLocationforecast> {
  const calls: MetRequest[] = []
  const fake = (await startFakeUpstream(
    {
      '/compact': (url, req) => {
        const lat = url.searchParams.get('lat')
        const lon = url.searchParams.get('lon')
        const userAgent = req.headers['user-agent']
        const ifModifiedSince = req.headers['if-modified-since'] as string | undefined
        calls.push({ lat, lon, userAgent, ifModifiedSince })
        if (!userAgent)
          return {
            status: 403,
            headers: { 'content-type': 'text/plain' },
            body: '403 Forbidden: missing or invalid User-Agent',
          }
        if (
          lat === null ||
          lon === null ||
          Math.abs(Number(lat)) > 90 ||
          Math.abs(Number(lon)) > 180 ||
          Number.isNaN(Number(lat)) ||
          Number.isNaN(Number(lon))
        ) {
          return {
            status: 400,
            headers: { 'content-type': 'text/plain' },
            body: '400 Bad Request: lat and lon are required and must be within range',
          }
        }
        if (/\.\d{5,}/.test(lat) || /\.\d{5,}/.test(lon))
          return { status: 403, headers: { 'content-type': 'text/plain' }, body: '403 Forbidden: too many decimals' }
        const headers = {
          'content-type': 'application/json',
          expires: new Date(Date.now() + fake.expiresInSeconds * 1000).toUTCString(),
          'last-modified': FORECAST_LAST_MODIFIED,
          'access-control-allow-origin': '*',
        }
        if (ifModifiedSince === FORECAST_LAST_MODIFIED) return { status: 304, headers }
        return { status: 200, headers, body: compactAnswer(lat, lon) }
      },
    },
    '/weatherapi/locationforecast/2.0',
  )) as FakeMetLocationforecast
  fake.calls = calls
  fake.expiresInSeconds = 1800
  return fake
}
