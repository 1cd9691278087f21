import { describe, expect, it } from 'vitest'
import { createHotCache } from './hot-cache.js'

const entry = (storedAt: number, ttlSeconds = 60) => ({ body: '{}', bytes: 2, etag: 'W/"x"', storedAt, ttlSeconds })

describe('createHotCache', () => {
  it('returns an entry only while it is fresh, and drops it after', () => {
    const hot = createHotCache(10, 1000)
    hot.put('a', entry(1000, 60))
    expect(hot.fresh('a', 1000 + 59_999)).toEqual(entry(1000, 60))
    expect(hot.fresh('a', 1000 + 60_000)).toBeUndefined()
    expect(hot.fresh('a', 1000)).toBeUndefined()
  })

  it('keeps its bodies within the byte budget, each counted as text and bytes, and a body larger than all of it out', () => {
    const hot = createHotCache(10, 200)
    hot.put('a', { ...entry(0), bytes: 60 })
    hot.put('b', { ...entry(0), bytes: 30 })
    hot.put('c', { ...entry(0), bytes: 30 })
    // 2 × (60 + 30 + 30) = 240 > 200: the least recently used went.
    expect(hot.fresh('a', 1)).toBeUndefined()
    expect(hot.fresh('b', 1)).toBeDefined()
    hot.put('huge', { ...entry(0), bytes: 101 })
    expect(hot.fresh('huge', 1)).toBeUndefined()
    expect(hot.fresh('c', 1)).toBeDefined()
  })

  it('holds nothing when sized 0', () => {
    const hot = createHotCache(0, 1000)
    hot.put('a', entry(0))
    expect(hot.fresh('a', 1)).toBeUndefined()
  })
})
