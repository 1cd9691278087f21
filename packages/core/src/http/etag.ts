import { createHash } from 'node:crypto'

/**
 * A weak validator for a serialized body: equal bytes give equal tags.
 */
export function weakEtag(body: string): string {
  return `W/"${createHash('sha1').update(body).digest('base64url')}"`
}

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
