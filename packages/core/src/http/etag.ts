import { takeWord, takeWords } from './murmur-lanes.js'

/**
 * A weak validator for a serialized body: equal bytes give equal tags, and different bodies
 * different tags but by a chance of about one in 2^64.
 *
 * The tag is a 64-bit hash computed here, in two 32-bit lanes of murmur3's mixing over the
 * body's UTF-8 bytes four at a time ({@link takeWords}, in WebAssembly), rather than a SHA-1
 * digest: a weak ETag needs no cryptographic strength, and `node:crypto` (with the stream
 * modules it loads) costs a fresh serverless process about 4 ms before its first answer. A body
 * is hashed once, when its answer is made or stored; cache hits reuse the tag.
 *
 * @example
 * weakEtag('{"data":[]}') // 'W/"…"' (16 hex digits), the same for the same body every time
 */
export function weakEtag(body: string): string {
  return weakEtagOfBytes(Buffer.from(body))
}

/**
 * {@link weakEtag} of a body already encoded as UTF-8, for a caller that keeps the bytes.
 *
 * @example
 * weakEtagOfBytes(Buffer.from('{"data":[]}')) === weakEtag('{"data":[]}') // true
 */
export function weakEtagOfBytes(bytes: Uint8Array): string {
  const length = bytes.length
  const lanes = { a: 0x9747b28c ^ length, b: 0x5bd1e995 ^ length }
  takeWords(bytes, length >>> 2, lanes)
  let tail = 0
  for (let i = length & ~3; i < length; i++) tail = (tail << 8) | bytes[i]!
  takeWord(tail, lanes)
  const a = finished(lanes.a)
  const b = finished(lanes.b)
  return `W/"${hex8(a)}${hex8(b ^ a)}"`
}

/** murmur3's finaliser: every input bit reaches every output bit. */
function finished(lane: number): number {
  let h = Math.imul(lane ^ (lane >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return h ^ (h >>> 16)
}

const hex8 = (lane: number) => (lane >>> 0).toString(16).padStart(8, '0')

/**
 * Whether an `If-None-Match` header matches an ETag, by weak comparison (RFC 9110 13.1.2):
 * `*`, or any listed tag equal to ours once the `W/` prefixes are ignored.
 */
export function ifNoneMatchHits(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false
  const value = Array.isArray(header) ? header.join(',') : header
  if (value.trim() === '*') return true
  const opaque = etag.replace(/^W\//, '')
  return value.split(',').some((tag) => tag.trim().replace(/^W\//, '') === opaque)
}
