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
export const nobilReply = (body: Buffer | string): FakeReply => ({
  status: 200,
  headers: { 'content-type': 'text/html; charset=UTF-8' },
  body,
})

/** What a fake NOBIL accepts and answers. */
export interface FakeNobilOptions {
  /** The API keys it accepts; {@link FAKE_NOBIL_KEY} by default. */
  keys?: readonly string[]
  /** The body of a search it accepts; the recorded search near Oslo S, whatever was asked, by default. */
  search?: (url: URL) => Buffer | string
}

/**
 * A local NOBIL under `/api/server`: `search.php` answers the fixture to the right key and
 * `{"error": ...}` to any other (the real refusal's shape is not documented; this is assumed).
 *
 * @example
 * const fake = await startFakeNobil()
 * createGateway({ sources: [nobil({ apiKey: FAKE_NOBIL_KEY })], upstreams: { nobil: { baseUrl: fake.baseUrl } } })
 */
export async function startFakeNobil(options: FakeNobilOptions = {}): Promise<FakeUpstream> {
  const keys = options.keys ?? [FAKE_NOBIL_KEY]
  const search = options.search ?? (() => nobilSearchFixture)
  return startFakeUpstream(
    {
      '/search.php': (url) =>
        keys.includes(url.searchParams.get('apikey') ?? '')
          ? nobilReply(search(url))
          : nobilReply('{"error":"Invalid API key"}'),
    },
    '/api/server',
  )
}
