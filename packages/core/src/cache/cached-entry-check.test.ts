import { describe, expect, it } from 'vitest'
import { cacheEntry } from '../pipeline/cached-answer.js'
import { cachedEntryProblem } from './cached-entry-check.js'

const now = Date.now()
const good = { ...cacheEntry({ data: [1, 2, 3], _meta: { note: 'æøå' } }, 60), storedAt: now - 1000 }
const limit = 1024

describe('cachedEntryProblem', () => {
  it('accepts an entry exactly as the gateway writes it, a remembered 404 too', () => {
    expect(cachedEntryProblem(good, now, limit)).toBeUndefined()
    expect(
      cachedEntryProblem({ ...cacheEntry({ error: { status: 404 } }, 60), status: 404 }, now, limit),
    ).toBeUndefined()
    // Within the clock skew between instances.
    expect(cachedEntryProblem({ ...good, storedAt: now + 1500 }, now, limit)).toBeUndefined()
  })

  it.each([
    ["another app's string", 'hello', /string, not an entry/],
    ['a list', [good], /a list/],
    ['a body that is not text', { ...good, body: { html: true } }, /body is not text/],
    ['a stored time in the future', { ...good, storedAt: now + 3_600_000 }, /in the future/],
    ['no stored time', { ...good, storedAt: 'yesterday' }, /no stored time/],
    ['a freshness of ten years', { ...good, ttlSeconds: 10 * 366 * 86_400 }, /within a year/],
    ['a fractional freshness', { ...good, ttlSeconds: 1.5 }, /within a year/],
    ['an odd status', { ...good, status: 500 }, /neither 200 nor 404/],
    ['a truncated body', { ...good, body: good.body.slice(0, -5) }, /byte count/],
    ['an HTML body with its own byte count', { ...good, body: '<html>x</html>', bytes: 14 }, /not a JSON object/],
    ['an edited body', { ...good, body: good.body.replace('1', '9') }, /ETag/],
    [
      'a body over the size bound',
      { ...good, body: `{"x":"${'a'.repeat(limit)}"}`, bytes: limit + 8 },
      /larger than the 1024 bytes/,
    ],
    ['extra fields', { ...good, script: 'alert(1)' }, /fields this gateway does not write/],
  ])('refuses %s', (_name, value, reason) => {
    expect(cachedEntryProblem(value, now, limit)).toMatch(reason)
  })
})
