/**
 * A weak validator for a serialized body: equal bytes give equal tags, and different bodies
 * different tags but by a chance of about one in 2^64.
 *
 * The tag is a 64-bit hash computed here, in two 32-bit multiply-xor lanes over the body's
 * UTF-16 code units, each finished with an avalanche step, rather than a SHA-1 digest: a weak
 * ETag needs no cryptographic strength, and `node:crypto` (with the stream modules it loads)
 * costs a fresh serverless process about 4 ms before its first answer. A body is hashed once,
 * when its answer is made or stored; cache hits reuse the tag.
 *
 * @example
 * weakEtag('{"data":[]}') // 'W/"…"' (16 hex digits), the same for the same body every time
 */
export function weakEtag(body: string): string {
  let a = 0x811c9dc5 ^ body.length
  let b = 0x9e3779b9 ^ body.length
  for (let i = 0; i < body.length; i++) {
    const unit = body.charCodeAt(i)
    a = Math.imul(a ^ unit, 0x01000193)
    b = Math.imul(b ^ unit, 0x5bd1e995)
  }
  a = Math.imul(a ^ (a >>> 16), 0x85ebca6b) ^ Math.imul(b ^ (b >>> 13), 0xc2b2ae35)
  b = Math.imul(b ^ (b >>> 16), 0x85ebca6b) ^ Math.imul(a ^ (a >>> 13), 0xc2b2ae35)
  return `W/"${hex8(a)}${hex8(b)}"`
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
