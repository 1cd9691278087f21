import { weakEtagOfBytes } from '../http/etag.js'
import type { EncodedBody } from '../http/gateway-request.js'
import type { CachedResponse } from './cached-response.js'

// Beside the entries rather than in them, so the store never holds the bytes as well as the
// text; an entry the hot cache lets go takes its bytes with it.
const kept = new WeakMap<CachedResponse, Buffer>()

/**
 * A cache entry for a body made now (a 200 answer, or with `status` 404 a remembered "no such
 * entity"): the body encoded once, counted, hashed for its ETag, and its bytes kept for its hits
 * to write instead of encoding the text again.
 *
 * @example
 * const entry = entryOfBody('{"data":[]}', 60)
 */
export function entryOfBody(body: string, ttlSeconds: number, status?: 404): CachedResponse {
  const encoded = Buffer.from(body)
  const entry: CachedResponse = {
    ...(status === undefined ? {} : { status }),
    body,
    bytes: encoded.length,
    etag: weakEtagOfBytes(encoded),
    storedAt: Date.now(),
    ttlSeconds,
  }
  kept.set(entry, encoded)
  return entry
}

/**
 * An entry's body as UTF-8 bytes: those kept when it was made, or, for an entry read from the
 * store, encoded once now and kept.
 *
 * @example
 * const written = entryBytes(entry) // the same Buffer for every hit of the entry
 */
export function entryBytes(entry: CachedResponse): Buffer {
  let bytes = kept.get(entry)
  if (bytes === undefined) {
    bytes = Buffer.from(entry.body)
    kept.set(entry, bytes)
  }
  return bytes
}

/**
 * An entry's body with its bytes for an answer to carry: those kept when the entry was made,
 * else encoded when an adapter first asks for them, so that an answer read from the store and
 * never written as bytes (a Lambda's, whose body goes out as text) costs no encoding.
 *
 * @example
 * const answer = { status: 200, headers: {}, body: entry.body, encoded: encodedBody(entry) }
 */
export function encodedBody(entry: CachedResponse): EncodedBody {
  let bytes = kept.get(entry)
  return {
    text: entry.body,
    get bytes() {
      bytes ??= entryBytes(entry)
      return bytes
    },
  }
}
