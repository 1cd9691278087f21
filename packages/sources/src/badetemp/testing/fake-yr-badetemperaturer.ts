import { readFileSync } from 'node:fs'
import type { IncomingMessage } from 'node:http'
import { startFakeUpstream, type FakeReply, type FakeUpstream } from '@allmenning/core/testing'
import { distanceKm } from '../../shared/wgs84-point.js'

/** The key the fake accepts besides `demo` (the offline demo's key). */
export const FAKE_YR_BADETEMP_KEY = 'test-yr-badetemp-key-6f1e2d3c4b5a'

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')

/**
 * Measuring points with their latest reading, in the shape of the official API's
 * `/api/watertemperatures` as a client's tests record it (`locationName`, `locationId` "0-10014",
 * `position{lat, lon}`, `elevation`, `county` "Oslo fylke", `municipality` "Oslo kommune",
 * `temperature`, `time` with an offset, `sourceDisplayName` only on some): our own points in and
 * around Oslo (one last read 8 days before, one without a position) and in the largest cities.
 * Recorded at {@link YR_RECORDED_TIME}; the fake moves the times to now.
 */
export const yrWaterTemperaturesFixture = fixture('watertemperatures.json')

/** One point's readings (`/api/locations/0-10027/watertemperatures`), `[{temperature, time}]`, two older than five days. */
export const yrLocationReadingsFixture = fixture('location-0-10027-watertemperatures.json')

/** When the fixtures were written; the fake moves every time in them by the whole hours since. */
export const YR_RECORDED_TIME = '2026-11-20T10:00:00+01:00'

const HOUR_MS = 3_600_000

/**
 * A recorded time moved by the whole hours since the recording, written as Yr writes it (+01:00).
 *
 * @example
 * yrTime('2026-11-20T09:12:00+01:00', Date.parse('2026-11-28T10:20:00Z')) // '2026-11-28T10:12:00+01:00'
 */
export function yrTime(recorded: string, now: number = Date.now()): string {
  const shift = Math.floor(now / HOUR_MS) * HOUR_MS - Date.parse(YR_RECORDED_TIME)
  const moved = Date.parse(recorded) + shift + HOUR_MS
  return `${new Date(moved).toISOString().slice(0, 19)}+01:00`
}

interface Point {
  locationId: string
  position?: { lat: number; lon: number }
  time: string
  [field: string]: unknown
}

// The content type was not seen in a capture (assumed JSON as ASP.NET-style services send it).
const json = (value: unknown): FakeReply => ({
  status: 200,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify(value),
})
// A refused key: the client's tests record a bare 401; its body was not seen.
const unauthorized: FakeReply = { status: 401, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: '' }
const notFound: FakeReply = { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: '' }

/** What a fake Yr accepts and answers. */
export interface FakeYrOptions {
  /** The keys it accepts; {@link FAKE_YR_BADETEMP_KEY} and `demo` by default. */
  keys?: readonly string[]
  /** Answer any plausible location id with the recorded readings (the demo), not only 0-10027. */
  anyLocation?: boolean
}

/**
 * A local Yr bathing-temperature API: `/locations/{lat},{lon}/nearestwatertemperatures` (the 6
 * nearest recorded points within 50 km, as the real one is documented to answer),
 * `/locations/{id}/watertemperatures` and `/watertemperatures`, each checking the `apikey`
 * header, with every time moved to now.
 *
 * @example
 * const fake = await startFakeYrBadetemperaturer()
 * createGateway({ sources: [badetemp({ apiKey: FAKE_YR_BADETEMP_KEY })], upstreams: { yr_badetemperaturer: { baseUrl: fake.baseUrl } } })
 */
export async function startFakeYrBadetemperaturer(options: FakeYrOptions = {}): Promise<FakeUpstream> {
  const keys = new Set(options.keys ?? [FAKE_YR_BADETEMP_KEY, 'demo'])
  const points = JSON.parse(yrWaterTemperaturesFixture) as Point[]
  const readings = JSON.parse(yrLocationReadingsFixture) as { temperature: number; time: string }[]
  const allowed = (req: IncomingMessage) => keys.has(String(req.headers['apikey'] ?? ''))
  const moved = (now: number) => points.map((p) => ({ ...p, time: yrTime(p.time, now) }))

  return startFakeUpstream({
    '/watertemperatures': (_url, req) => (allowed(req) ? json(moved(Date.now())) : unauthorized),
    '/locations/{where}/nearestwatertemperatures': (_url, req, { where }) => {
      if (!allowed(req)) return unauthorized
      const [lat, lon] = decodeURIComponent(where!).split(',').map(Number)
      if (!Number.isFinite(lat) || !Number.isFinite(lon))
        return { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Bad Request' }
      const nearest = moved(Date.now())
        .filter((p) => p.position)
        .map((p) => ({ p, d: distanceKm({ lat: lat!, lon: lon! }, p.position!) }))
        .filter(({ d }) => d <= 50)
        .sort((a, b) => a.d - b.d)
        .slice(0, 6)
        .map(({ p }) => p)
      // The point without a position rides along near Oslo, as an odd row would.
      const odd = points.find((p) => !p.position)
      return json(
        nearest.length > 0 && odd && lat! > 59 && lat! < 60.5 && lon! > 10 && lon! < 11.5
          ? [...nearest, { ...odd, time: yrTime(odd.time) }]
          : nearest,
      )
    },
    '/locations/{id}/watertemperatures': (_url, req, { id }) => {
      if (!allowed(req)) return unauthorized
      const known = id === '0-10027' || (options.anyLocation === true && /^\d{1,3}-\d{1,10}$/.test(id!))
      if (!known) return notFound
      const now = Date.now()
      return json(readings.map((r) => ({ ...r, time: yrTime(r.time, now) })))
    },
  })
}
