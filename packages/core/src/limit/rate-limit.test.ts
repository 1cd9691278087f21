import { describe, expect, it } from 'vitest'
import type { SharedRedisClient } from '../cache/shared-redis-client.js'
import { createRateLimiter } from './rate-limit.js'

const request = { method: 'GET', path: '/api/v1/', query: '', headers: {}, clientAddress: '192.0.2.7' }

describe('createRateLimiter with a Redis client', () => {
  it('counts in process without sending Redis anything while its client is not connected, and says so once', async () => {
    let sent = 0
    const refuse = async () => {
      sent++
      throw new Error('nothing may be sent to a client that is not connected')
    }
    const redis: SharedRedisClient = {
      isReady: false,
      isOpen: true,
      set: refuse,
      eval: refuse,
      get: refuse,
      del: refuse,
    }
    const errors: unknown[] = []
    const limiter = createRateLimiter({ quota: { requests: 3, windowSeconds: 60 }, redis }, (e) => errors.push(e))
    const verdicts = []
    for (let i = 0; i < 4; i++) verdicts.push(await limiter.check(request, false))
    // The quota still holds, in this instance's memory.
    expect(verdicts.map((v) => v?.refusal?.status)).toEqual([undefined, undefined, undefined, 429])
    expect(verdicts[0]!.headers.ratelimit).toBe('"default";r=2;t=60')
    expect(sent).toBe(0)
    expect(errors.map(String)).toEqual([
      'RedisNotConnectedError: Redis is not connected: rate limits are counted in process until it is back',
    ])
  })
})
