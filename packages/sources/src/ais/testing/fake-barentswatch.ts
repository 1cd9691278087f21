import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { IncomingMessage } from 'node:http'
import { startFakeUpstream, type FakeReply, type FakeRoute, type FakeUpstream } from '@allmenning/core/testing'

/** The client the fake identity service knows. */
export const FAKE_BARENTSWATCH_CLIENT = {
  clientId: 'kari@example.no:allmenning-test',
  clientSecret: 'fake-secret-with-æøå&=+',
}

/**
 * BarentsWatch's latest combined records (Full model, JSON): vessels by Oslo and Bergen, with
 * the feed's quirks (null course and heading, heading 511, speed 102.3, a name padded with
 * spaces, latitude 91 for "not available", 7 fractional digits in msgtime, a record without MMSI).
 */
export const latestCombinedFixture = readFileSync(new URL('./fixtures/latest-combined-full.json', import.meta.url))

const json = (status: number, body: unknown, type = 'application/json; charset=utf-8'): FakeReply => ({
  status,
  headers: { 'content-type': type },
  body: JSON.stringify(body),
})

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let text = ''
  for await (const chunk of req) text += String(chunk)
  return new URLSearchParams(text)
}

/** What a fake BarentsWatch knows and serves; the tests' client and the recorded snapshot by default. */
export interface FakeBarentswatchOptions {
  /** The API clients the identity service issues tokens to. */
  clients?: { clientId: string; clientSecret: string }[]
  /** The bytes of the snapshot, asked for at each request (so it may move with the clock). */
  snapshot?: () => Buffer | string
}

/** The two BarentsWatch fakes and what they saw. */
export interface FakeBarentswatch {
  id: FakeUpstream
  ais: FakeUpstream
  /** Tokens issued so far. */
  readonly issued: string[]
  /** Makes every token issued so far invalid, as if it had expired. */
  expireTokens(): void
  /** Answers the AIS snapshot route with `route` from now on (the real snapshot by default). */
  snapshot(route?: FakeRoute): void
  /** Answers the token route with `route` from now on (real tokens by default). */
  tokens(route?: FakeRoute): void
  close(): Promise<void>
}

/**
 * A local id.barentswatch.no (`POST /connect/token`, client credentials, scope ais) and a local
 * live.ais.barentswatch.no (`GET /v1/latest/combined` with a Bearer token, answering 401 as
 * problem+json to a missing or expired one).
 *
 * @example
 * const bw = await startFakeBarentswatch()
 * createGateway({ sources: [ais(FAKE_BARENTSWATCH_CLIENT)], upstreams: { barentswatch_id: { baseUrl: bw.id.baseUrl }, barentswatch_ais: { baseUrl: bw.ais.baseUrl } } })
 */
export async function startFakeBarentswatch(options: FakeBarentswatchOptions = {}): Promise<FakeBarentswatch> {
  const clients = options.clients ?? [FAKE_BARENTSWATCH_CLIENT]
  const snapshotBody = options.snapshot ?? (() => latestCombinedFixture)
  const issued: string[] = []
  const valid = new Set<string>()
  const issue: FakeRoute = async (_url, req) => {
    if (req.method !== 'POST' || !String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
      return json(400, { error: 'invalid_request' })
    }
    const form = await readForm(req)
    if (form.get('grant_type') !== 'client_credentials') return json(400, { error: 'unsupported_grant_type' })
    if (
      !clients.some(
        (client) => form.get('client_id') === client.clientId && form.get('client_secret') === client.clientSecret,
      )
    ) {
      return json(400, { error: 'invalid_client' })
    }
    if (form.get('scope') !== 'ais') return json(400, { error: 'invalid_scope' })
    const token = `eyJhbGciOiJSUzI1NiJ9.${randomUUID()}`
    issued.push(token)
    valid.add(token)
    return json(200, { access_token: token, expires_in: 3600, token_type: 'Bearer', scope: 'ais' })
  }
  const id = await startFakeUpstream({ '/connect/token': issue })
  const real: FakeRoute = (_url, req) => {
    const token = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1]
    if (!token || !valid.has(token)) {
      return json(
        401,
        {
          type: 'https://tools.ietf.org/html/rfc7235#section-3.1',
          title: 'Unauthorized',
          status: 401,
          traceId: `00-${randomUUID().replace(/-/g, '')}-01`,
        },
        'application/problem+json; charset=utf-8',
      )
    }
    return { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: snapshotBody() }
  }
  const ais = await startFakeUpstream({ '/v1/latest/combined': real })
  return {
    id,
    ais,
    issued,
    expireTokens: () => valid.clear(),
    snapshot: (route = real) => ais.route('/v1/latest/combined', route),
    tokens: (route = issue) => id.route('/connect/token', route),
    close: async () => {
      await Promise.all([id.close(), ais.close()])
    },
  }
}
