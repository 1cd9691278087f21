import { describe, expect, it } from 'vitest'
import { cacheKey } from './cache-key.js'
import { isFresh } from './freshness.js'

describe('cache keys', () => {
  it('share one namespace and version, and end with the API root the answer links under', () => {
    expect(cacheKey({ apiRoot: '/data/api/v1' }, 'statnett', 'get_physical_flow', '{"area":"NO1"}')).toBe(
      'allmenning:v1:statnett:get_physical_flow:{"area":"NO1"}:/data/api/v1',
    )
  })
})

describe('freshness', () => {
  it('holds until the entry has been stored for its whole time to live', () => {
    const entry = { storedAt: 1_000_000, ttlSeconds: 60 }
    expect(isFresh(entry, 1_000_000 + 59_999)).toBe(true)
    expect(isFresh(entry, 1_000_000 + 60_000)).toBe(false)
  })
})
