import { weakEtag } from '../http/etag.js'
import type { CachedResponse } from './cached-response.js'

/** How far a stored time may lie ahead of this instance's clock: the skew between instances' clocks. */
const clockSkewMs = 2000
/** No answer is kept fresh longer than this; a longer time is not one this gateway wrote. */
const maxTtlSeconds = 366 * 86_400

/**
 * Checks a value read from the cache store before it is served: the store may be shared with
 * other instances and other apps, so what it holds under our key is not trusted. An entry is
 * served only if it has exactly the shape this gateway writes, its body is within
 * `maxBytes`, its byte count and ETag are those of its body (a truncated, edited or foreign
 * body fails), and its stored time is not in the future. Gives the reason it is refused, or
 * `undefined` for an entry fit to serve.
 *
 * @example
 * const problem = cachedEntryProblem(await keyv.get(key), Date.now(), 8 * 1024 * 1024)
 * if (problem) onError(new Error(`ignored the cache entry under ${key}: ${problem}`))
 */
export function cachedEntryProblem(value: unknown, now: number, maxBytes: number): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `it is ${Array.isArray(value) ? 'a list' : typeof value}, not an entry`
  const entry = value as Partial<Record<keyof CachedResponse, unknown>>
  if (entry.status !== undefined && entry.status !== 200 && entry.status !== 404)
    return 'its status is neither 200 nor 404'
  if (typeof entry.body !== 'string') return 'its body is not text'
  // Checked before anything reads the whole body: a string has at least a byte per UTF-16 unit.
  if (entry.body.length > maxBytes) return `its body is larger than the ${maxBytes} bytes accepted`
  if (typeof entry.storedAt !== 'number' || !Number.isFinite(entry.storedAt) || entry.storedAt <= 0)
    return 'it has no stored time'
  if (entry.storedAt > now + clockSkewMs)
    return `its stored time, ${new Date(entry.storedAt).toISOString()}, is in the future`
  if (
    typeof entry.ttlSeconds !== 'number' ||
    !Number.isInteger(entry.ttlSeconds) ||
    entry.ttlSeconds <= 0 ||
    entry.ttlSeconds > maxTtlSeconds
  )
    return 'its freshness time is not a whole number of seconds within a year'
  if (typeof entry.bytes !== 'number' || entry.bytes !== Buffer.byteLength(entry.body))
    return 'its byte count is not that of its body'
  if (entry.bytes > maxBytes) return `its body is larger than the ${maxBytes} bytes accepted`
  if (!entry.body.startsWith('{') || !entry.body.endsWith('}')) return 'its body is not a JSON object'
  if (typeof entry.etag !== 'string' || entry.etag !== weakEtag(entry.body)) return 'its ETag is not that of its body'
  const keys = Object.keys(entry)
  if (keys.some((key) => !entryFields.has(key))) return 'it has fields this gateway does not write'
  return undefined
}

const entryFields = new Set<string>([
  'status',
  'body',
  'bytes',
  'etag',
  'storedAt',
  'ttlSeconds',
] satisfies (keyof CachedResponse)[])
