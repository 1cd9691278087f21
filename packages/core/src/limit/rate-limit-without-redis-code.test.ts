import { describe, expect, it, vi } from 'vitest'
import type { SharedRedisClient } from '../cache/shared-redis-client.js'
import { createRateLimiter } from './rate-limit.js'

// As a bundle that left rate-limiter-flexible out would fail: the module that counts in Redis
// cannot be imported.
vi.mock('./redis-window-count.js', () => {
  throw new Error("Cannot find package 'rate-limiter-flexible'")
})

const request = { method: 'GET', path: '/api/v1/', query: '', headers: {}, clientAddress: '192.0.2.7' }

describe('createRateLimiter when the code that counts in Redis cannot be loaded', () => {
  it('counts in process and keeps the quota, reporting the failure once, rather than failing requests', async () => {
    let sent = 0
    const count = async () => {
      sent++
      return null
    }
    const redis: SharedRedisClient = { isReady: true, isOpen: true, set: count, eval: count, get: count, del: count }
    const errors: unknown[] = []
    const limiter = createRateLimiter({ quota: { requests: 2, windowSeconds: 60 }, redis }, (e) => errors.push(e))
    const verdicts = []
    for (let i = 0; i < 3; i++) verdicts.push(await limiter.check(request, i === 0))
    expect(verdicts.map((v) => v?.refusal?.status)).toEqual([undefined, undefined, 429])
    expect(verdicts[0]!.headers.ratelimit).toBe('"default";r=1;t=60, "expensive";r=29;t=60')
    expect(verdicts[2]!.refusal?.message).toMatch(/2 requests per 60 s/)
    expect(sent).toBe(0)
    expect(errors).toHaveLength(1)
    expect(String(errors[0])).toBe(
      'Error: Rate limits are counted in process: the code that counts them in Redis could not be loaded',
    )
    expect((errors[0] as Error).cause).toBeInstanceOf(Error)
  })
})
