import { readFileSync } from 'node:fs'
import { startFakeUpstream, type FakeReply, type FakeUpstream } from '@allmenning/core/testing'

/** The key the fake accepts besides `demo` (the offline demo's key). */
export const FAKE_HYDAPI_KEY = 'test-hydapi-key-Zm9vYmFy0123456789=='

const ACCEPTED_KEYS = new Set([FAKE_HYDAPI_KEY, 'demo'])

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')

interface StationsAnswer {
  currentLink: string
  itemCount: number
  data: { stationId: string; stationStatusName: string | null }[]
}
interface ObservationsAnswer {
  currentLink: string
  itemCount: number
  data: { stationId: string; parameter: number }[]
}

/**
 * `/Stations?Active=1` as HydAPI writes it (one line, every station field, catchment
 * statistics, a `seriesList` per station with its resolutions), with stations of our own around
 * Oslo and elsewhere: active ones with data up to the recorded hour, a closed archive station, an
 * active one whose data stopped months before, one without a position, one with no `seriesList`.
 */
export const hydapiStationsFixture = fixture('hydapi-stations.json')

/** The latest observation of every instantaneous water-level and discharge series of the stations, one `/Observations` answer. */
export const hydapiObservationsFixture = fixture('hydapi-observations-latest.json')

/** The hour the fixtures were written at; the fake moves every time in them by the hours since. */
export const HYDAPI_RECORDED_HOUR = '2026-09-04T18:00:00Z'

const HOUR_MS = 3_600_000

/**
 * A recorded HydAPI time as the fake answers it at `now`: moved by the whole hours since the
 * recording, so that the newest data is always from the current hour, as on a live service.
 *
 * @example
 * hydapiTime('2026-09-04T18:00:00Z', Date.parse('2026-11-28T07:12:00Z')) // '2026-11-28T07:00:00Z'
 */
export function hydapiTime(recorded: string, now: number = Date.now()): string {
  const shift = Math.floor(now / HOUR_MS) * HOUR_MS - Date.parse(HYDAPI_RECORDED_HOUR)
  const match = /^(.*?)(\.\d+)?Z$/.exec(recorded)
  const moved = new Date(Date.parse(recorded) + shift).toISOString().slice(0, 19)
  return `${moved}${match?.[2] ?? ''}Z`
}

function shifted(text: string, now: number): string {
  return text.replace(
    /"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)"/g,
    (_match, time: string) => `"${hydapiTime(time, now)}"`,
  )
}

// HydAPI runs on ASP.NET Core: JSON with a spaced charset (assumed: headers were not seen), and RFC 7807 problem details for errors.
const json = (body: string, status = 200): FakeReply => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body,
})
const problem = (status: number, title: string, errors?: Record<string, string[]>): FakeReply => ({
  status,
  headers: { 'content-type': 'application/problem+json; charset=utf-8' },
  body: JSON.stringify({
    type: `https://tools.ietf.org/html/rfc7231#section-6.5.${status === 404 ? 4 : 1}`,
    title,
    status,
    traceId: '00-5c1f4f7e9a1b2c3d4e5f60718293a4b5-9a8b7c6d5e4f3a2b-00',
    ...(errors ? { errors } : {}),
  }),
})

const STATION_IDS = /^([0-9]+)\.([0-9]+)\.([0-9]+)(,\s*([0-9]+)\.([0-9]+)\.([0-9]+))*$/
const PARAMETERS = /^([0-9]+,)*[0-9]+$/

/** Options of {@link startFakeHydapi}. */
export interface FakeHydapiOptions {
  /** The clock the recorded times are moved to; `Date.now` by default. */
  now?: () => number
}

/**
 * A local HydAPI under `/api/v1`. Every route wants an accepted `X-API-Key` (the test key or
 * `demo`) and answers 401 with an empty body without one (the real refusal was not seen).
 * `/Stations` wants `Active` (as HydAPI's swagger says): `Active=1` answers every station of the
 * fixture, `Active=0` only those NVE calls "Aktiv", as real answers show. `/Observations` with
 * `StationId` (several comma-separated), `Parameter` (several comma-separated) and
 * `ResolutionTime=0` answers the latest value of each series asked for that the fixture has, and
 * a 404 with problem details when it has none of them (HydAPI's real answer to a series a
 * station lacks); other resolutions are not recorded and answer 404 too. Times are moved to the
 * current hour (see {@link hydapiTime}).
 *
 * @example
 * const hydapi = await startFakeHydapi()
 * createGateway({ sources: [nve({ hydapiKey: FAKE_HYDAPI_KEY })], upstreams: { nve_hydapi: { baseUrl: hydapi.baseUrl } } })
 */
export async function startFakeHydapi(options: FakeHydapiOptions = {}): Promise<FakeUpstream> {
  const now = options.now ?? Date.now
  const keyed =
    (
      route: (url: URL) => FakeReply,
    ): ((url: URL, req: { headers: Record<string, string | string[] | undefined> }) => FakeReply) =>
    (url, req) => {
      const key = req.headers['x-api-key']
      return typeof key === 'string' && ACCEPTED_KEYS.has(key)
        ? route(url)
        : { status: 401, headers: { 'content-length': '0' }, body: '' }
    }
  return startFakeUpstream(
    {
      '/Stations': keyed((url) => {
        const active = url.searchParams.get('Active')
        if (active !== '0' && active !== '1')
          return problem(400, 'One or more validation errors occurred.', { Active: ['The Active field is required.'] })
        const answer = JSON.parse(hydapiStationsFixture) as StationsAnswer
        if (active === '0') answer.data = answer.data.filter((s) => s.stationStatusName === 'Aktiv')
        answer.itemCount = answer.data.length
        answer.currentLink = `https://hydapi.nve.no/api/v1/Stations${url.search}`
        return json(shifted(JSON.stringify(answer), now()))
      }),
      '/Observations': keyed((url) => {
        const ids = url.searchParams.get('StationId') ?? ''
        const parameters = url.searchParams.get('Parameter') ?? ''
        const resolution = url.searchParams.get('ResolutionTime')
        const errors: Record<string, string[]> = {}
        if (!STATION_IDS.test(ids))
          errors['StationId'] = [`The field StationId must match the regular expression '${STATION_IDS.source}'.`]
        if (!PARAMETERS.test(parameters))
          errors['Parameter'] = [`The field Parameter must match the regular expression '${PARAMETERS.source}'.`]
        if (resolution === null) errors['ResolutionTime'] = ['The ResolutionTime field is required.']
        if (Object.keys(errors).length > 0) return problem(400, 'One or more validation errors occurred.', errors)
        if (resolution !== '0' && resolution !== 'inst') return problem(404, 'Not Found')
        const wantedIds = new Set(ids.split(',').map((id) => id.trim()))
        const wantedParameters = new Set(parameters.split(',').map(Number))
        const answer = JSON.parse(hydapiObservationsFixture) as ObservationsAnswer
        answer.data = answer.data.filter((s) => wantedIds.has(s.stationId) && wantedParameters.has(s.parameter))
        if (answer.data.length === 0) return problem(404, 'Not Found')
        answer.itemCount = answer.data.length
        answer.currentLink = `https://hydapi.nve.no/api/v1/Observations${url.search}`
        return json(shifted(JSON.stringify(answer), now()))
      }),
    },
    '/api/v1',
  )
}
