import { readFileSync } from 'node:fs'
import { startFakeUpstream, type FakeReply, type FakeUpstream } from '@allmenning/core/testing'

/** The key the fake accepts. */
export const FAKE_NOBIL_KEY = 'test-nobil-key-0123456789abcdef'

/**
 * A search answer near Oslo S as PHP's json_encode writes it: non-ASCII as \u escapes, slashes
 * as "\/", numbers sometimes as text, Position as "(lat,lon)", empty attribute maps as [].
 */
export const nobilSearchFixture = readFileSync(new URL('./fixtures/search-near-oslo.json', import.meta.url))

/** The PHP endpoint sends its JSON without a JSON content type. */
export const nobilReply = (body: Buffer | string): FakeReply => ({ status: 200, headers: { 'content-type': 'text/html; charset=UTF-8' }, body })

/**
 * A local NOBIL under `/api/server`: `search.php` answers the fixture to the right key and
 * `{"error": ...}` to any other (the real refusal's shape is not documented; this is assumed).
 *
 * @example
 * const fake = await startFakeNobil()
 * createGateway({ sources: [nobil({ apiKey: FAKE_NOBIL_KEY })], upstreams: { nobil: { baseUrl: fake.baseUrl } } })
 */
export async function startFakeNobil(): Promise<FakeUpstream> {
  return startFakeUpstream(
    {
      '/search.php': (url) =>
        url.searchParams.get('apikey') === FAKE_NOBIL_KEY ? nobilReply(nobilSearchFixture) : nobilReply('{"error":"Invalid API key"}'),
    },
    '/api/server',
  )
}
