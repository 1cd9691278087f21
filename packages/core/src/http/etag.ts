/**
 * A weak validator for a serialized body: equal bytes give equal tags, and different bodies
 * different tags but by a chance of about one in 2^64.
 *
 * The tag is a 64-bit hash computed here, in two 32-bit lanes of murmur3's mixing over the
 * body's UTF-8 bytes four at a time (as the machine orders them: little-endian on every
 * platform Node is deployed on in practice), rather than a SHA-1 digest: a weak ETag needs no
 * cryptographic strength, and `node:crypto` (with the stream modules it loads) costs a fresh
 * serverless process about 4 ms before its first answer. A body is hashed once, when its
 * answer is made or stored; cache hits reuse the tag.
 *
 * @example
 * weakEtag('{"data":[]}') // 'W/"…"' (16 hex digits), the same for the same body every time
 */
export function weakEtag(body: string): string {
  const length = Buffer.byteLength(body)
  // Its own memory, so the words start at offset 0 (a pooled buffer may start anywhere).
  const bytes = Buffer.allocUnsafeSlow(length)
  bytes.write(body)
  const words = new Int32Array(bytes.buffer, 0, length >>> 2)
  let a = 0x9747b28c ^ length
  let b = 0x5bd1e995 ^ length
  // mixedIn written out for both lanes: a cold process runs this loop in V8's interpreter, where
  // two calls per word cost about a tenth of the hash (0.14–0.27 ms of the 2.9 ms the Lambda
  // bundle's first answer, a 37 KB list, spent hashing).
  const count = words.length
  for (let i = 0; i < count; i++) {
    const word = words[i]!
    let k = Math.imul(word, 0xcc9e2d51)
    k = Math.imul((k << 15) | (k >>> 17), 0x1b873593)
    a ^= k
    a = (Math.imul((a << 13) | (a >>> 19), 5) + 0xe6546b64) | 0
    let j = Math.imul(word, 0x85ebca6b)
    j = Math.imul((j << 15) | (j >>> 17), 0xc2b2ae35)
    b ^= j
    b = (Math.imul((b << 13) | (b >>> 19), 5) + 0xe6546b64) | 0
  }
  let tail = 0
  for (let i = length & ~3; i < length; i++) tail = (tail << 8) | bytes[i]!
  a = finished(mixedIn(a, tail, 0xcc9e2d51, 0x1b873593))
  b = finished(mixedIn(b, tail, 0x85ebca6b, 0xc2b2ae35))
  return `W/"${hex8(a)}${hex8(b ^ a)}"`
}

/** One 32-bit word taken into a lane (murmur3's body step, with the lane's constants). */
function mixedIn(lane: number, word: number, c1: number, c2: number): number {
  let k = Math.imul(word, c1)
  k = Math.imul((k << 15) | (k >>> 17), c2)
  const h = lane ^ k
  return (Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64) | 0
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
