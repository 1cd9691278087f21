import { readFileSync } from 'node:fs'
import type { IncomingMessage } from 'node:http'
import { fakeReply, startFakeUpstream, type FakeReply, type FakeUpstream } from '@allmenning/core/testing'
import { osloDateTime } from '../../shared/oslo-time.js'

/** The username and password the fake accepts unless told otherwise; tests look for them in answers. */
export const FAKE_DATEX_USERNAME = 'allmenning-test-user'
export const FAKE_DATEX_PASSWORD = 'fake-pw-9c41e7d2'

/** The path Vegvesen serves the snapshot of every situation at. */
export const DATEX_SNAPSHOT_PATH = '/datexapi/GetSituation/pullsnapshotdata'

/** The instant the fixture was written for; the fake moves every time in it by the same amount, to now. */
export const DATEX_RECORDED_AT = '2026-11-25T10:00:00+01:00'

/** The snapshot of our own situations, in the layout of Vegvesen's DATEX II 3.1 server. */
export const datexSnapshotFixture = readFileSync(new URL('./fixtures/datex-situations.xml', import.meta.url), 'utf8')

/** Options of {@link startFakeDatex}. */
export interface FakeDatexOptions {
  username?: string
  password?: string
  /** The instant to move the fixture's recorded time to; now when left out. */
  now?: number
  /** Another snapshot to answer, in the same layout. */
  snapshot?: string
}

/** The DATEX fake, and the time it answers for a time of the fixture. */
export interface FakeDatex extends FakeUpstream {
  /** `recorded` (a time as the fixture writes it) moved as the fake moves every time: in Oslo time with its offset. */
  at(recorded: string): string
}

const TIME = /\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?(?:Z|[+-]\d\d:\d\d)\b/g

/**
 * The snapshot with every time in it moved by `shiftMs`, written in Oslo time as Vegvesen
 * writes them (milliseconds dropped), so that what was in force at the recorded time is in
 * force at the time it was moved to.
 *
 * @example
 * shiftDatexTimes(datexSnapshotFixture, 86_400_000) // a day later
 */
export function shiftDatexTimes(snapshot: string, shiftMs: number): string {
  return snapshot.replace(TIME, (time) => osloDateTime(Date.parse(time) + shiftMs))
}

function basicCredentials(req: IncomingMessage): { username: string; password: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/.exec(req.headers.authorization ?? '')
  if (!match) return undefined
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  return colon < 0 ? undefined : { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) }
}

// Not seen: the body and headers of Vegvesen's refusal. A Spring Boot server's 401 is assumed.
const unauthorized = (): FakeReply =>
  fakeReply.json(
    { timestamp: new Date().toISOString(), status: 401, error: 'Unauthorized', path: DATEX_SNAPSHOT_PATH },
    { status: 401, headers: { 'www-authenticate': 'Basic realm="Realm"' } },
  )

/**
 * A local Statens vegvesen DATEX II 3.1 server: `GET /datexapi/GetSituation/pullsnapshotdata`
 * answers the snapshot fixture (a `messageContainer` of a `SituationPublication`, Vegvesen's
 * `ns2:`/`ns8:`/`ns12:` prefixes and common namespace as default) with its times moved to now,
 * to a request with HTTP Basic credentials it accepts; no or wrong credentials are a 401 with
 * `WWW-Authenticate: Basic`. It sends `Last-Modified` and answers `If-Modified-Since` with a
 * 304. Not seen (assumed, as no whole real answer was found): the content type
 * `application/xml;charset=UTF-8`, the 401's body, and that Vegvesen honours If-Modified-Since.
 *
 * @example
 * const datex = await startFakeDatex()
 * createGateway({ sources: [vegvesen({ datexUsername: FAKE_DATEX_USERNAME, datexPassword: FAKE_DATEX_PASSWORD })], upstreams: { vegvesen_datex: { baseUrl: datex.baseUrl } } })
 */
export async function startFakeDatex(options: FakeDatexOptions = {}): Promise<FakeDatex> {
  const username = options.username ?? FAKE_DATEX_USERNAME
  const password = options.password ?? FAKE_DATEX_PASSWORD
  // Whole minutes, so that the snapshot and its Last-Modified stay the same while the fake runs.
  const shiftMs = Math.round(((options.now ?? Date.now()) - Date.parse(DATEX_RECORDED_AT)) / 60_000) * 60_000
  const body = shiftDatexTimes(options.snapshot ?? datexSnapshotFixture, shiftMs)
  const published = /<publicationTime>([^<]+)<\/publicationTime>/.exec(body)?.[1]
  const lastModified = new Date(published ? Date.parse(published) : Date.now()).toUTCString()
  const fake = await startFakeUpstream({
    [DATEX_SNAPSHOT_PATH]: (_url, req) => {
      if (req.method !== 'GET') return fakeReply.status(405, 'Method Not Allowed')
      const given = basicCredentials(req)
      if (!given || given.username !== username || given.password !== password) return unauthorized()
      const since = Date.parse(String(req.headers['if-modified-since'] ?? ''))
      if (!Number.isNaN(since) && since >= Date.parse(lastModified))
        return { status: 304, headers: { 'last-modified': lastModified } }
      return fakeReply.xml(body, {
        contentType: 'application/xml;charset=UTF-8',
        headers: { 'last-modified': lastModified },
      })
    },
  })
  return Object.assign(fake, { at: (recorded: string) => osloDateTime(Date.parse(recorded) + shiftMs) })
}
