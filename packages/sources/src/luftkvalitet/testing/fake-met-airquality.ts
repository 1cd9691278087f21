import { readFileSync } from 'node:fs'
import { startFakeUpstream, type FakeUpstream } from '@allmenning/core/testing'

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')
const stationsFixture = fixture('stations.json')
const forecastFixture = fixture('forecast-point.json')

/** The Last-Modified of every answer. */
export const AIR_LAST_MODIFIED = 'Tue, 10 Feb 2026 05:12:40 GMT'
const RECORDED_START = Date.parse('2026-02-10T08:00:00Z')

/** One request the fake received. */
export interface AirRequest {
  path: string
  query: string
  userAgent: string | undefined
  ifModifiedSince: string | undefined
}

/** A local airqualityforecast 0.1 with the requests it saw. */
export interface FakeMetAirquality extends FakeUpstream {
  calls: AirRequest[]
  /** Seconds from now the next answers expire; 3600 by default. */
  expiresInSeconds: number
}

const isoSecond = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')

/** The recorded forecast moved so that its first hour is the current one, as MET's is. */
function shifted(text: string): string {
  const shift = Math.floor(Date.now() / 3_600_000) * 3_600_000 - RECORDED_START
  return text.replace(
    /"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)"/g,
    (_match, time: string) => `"${isoSecond(Date.parse(time) + shift)}"`,
  )
}

/** Roughly mainland Norway; MET makes no forecast outside it. */
const inNorway = (lat: number, lon: number) => lat >= 57.5 && lat <= 71.5 && lon >= 4 && lon <= 31.5

/**
 * Starts a local MET airqualityforecast 0.1 under `/weatherapi/airqualityforecast/0.1`:
 * `/stations` answers the recorded station list (coordinates as strings), `/` the recorded
 * forecast for a point in Norway or a known station, moved to the current hour. Like MET, it
 * refuses callers without a User-Agent (403), sends `Expires` and `Last-Modified`, and
 * answers 304 to a matching `If-Modified-Since`. Outside Norway and for an unknown station it
 * answers 404 (assumed; MET does not document it).
 */
export async function startFakeMetAirquality(): Promise<FakeMetAirquality> {
  const calls: AirRequest[] = []
  const answer = (req: { headers: Record<string, string | string[] | undefined> }, body: () => string) => {
    const headers = {
      'content-type': 'application/json',
      expires: new Date(Date.now() + fake.expiresInSeconds * 1000).toUTCString(),
      'last-modified': AIR_LAST_MODIFIED,
    }
    if (req.headers['if-modified-since'] === AIR_LAST_MODIFIED) return { status: 304, headers }
    return { status: 200, headers, body: body() }
  }
  const record = (url: URL, req: { headers: Record<string, string | string[] | undefined> }) =>
    calls.push({
      path: url.pathname,
      query: url.search,
      userAgent: req.headers['user-agent'] as string | undefined,
      ifModifiedSince: req.headers['if-modified-since'] as string | undefined,
    })
  const forbidden = {
    status: 403,
    headers: { 'content-type': 'text/plain' },
    body: '403 Forbidden: missing or invalid User-Agent',
  }
  const notFound = (what: string) => ({
    status: 404,
    headers: { 'content-type': 'text/plain' },
    body: `404 Not Found: ${what}`,
  })

  const fake = (await startFakeUpstream(
    {
      '/stations': (url, req) => {
        record(url, req)
        if (!req.headers['user-agent']) return forbidden
        return answer(req, () => stationsFixture)
      },
      '/': (url, req) => {
        record(url, req)
        if (!req.headers['user-agent']) return forbidden
        const station = url.searchParams.get('station')
        if (station !== null) {
          if (!stationsFixture.includes(`"eoi":"${station}"`)) return notFound(`no station ${station}`)
          return answer(req, () =>
            shifted(forecastFixture).replace('"areaclass":"grunnkrets"', '"areaclass":"station"'),
          )
        }
        const lat = Number(url.searchParams.get('lat'))
        const lon = Number(url.searchParams.get('lon'))
        if (/\.\d{5,}/.test(url.search)) return forbidden
        if (!inNorway(lat, lon)) return notFound('no location found for the given coordinates')
        return answer(req, () => shifted(forecastFixture))
      },
    },
    '/weatherapi/airqualityforecast/0.1',
  )) as FakeMetAirquality
  fake.calls = calls
  fake.expiresInSeconds = 3600
  return fake
}
