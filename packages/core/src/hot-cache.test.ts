import { describe, expect, it } from 'vitest'
import { createHotCache } from './hot-cache.js'

const entry = (storedAt: number, ttlSeconds = 60) => ({ body: '{}', bytes: 2, etag: 'W/"x"', storedAt, ttlSeconds })

describe('createHotCache', () => {
  it('returns an entry only while it is fresh, and drops it after', () => {
    const hot = createHotCache(10)
    hot.put('a', entry(1000, 60))
    expect(hot.fresh('a', 1000 + 59_999)).toEqual(entry(1000, 60))
    expect(hot.fresh('a', 1000 + 60_000)).toBeUndefined()
    expect(hot.fresh('a', 1000)).toBeUndefined()
  })

  it('holds nothing when sized 0', () => {
    const hot = createHotCache(0)
    hot.put('a', entry(0))
    expect(hot.fresh('a', 1)).toBeUndefined()
  })
})
