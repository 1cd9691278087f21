// The files, not the index: it loads every store the package offers (rate-limiter-flexible-files.d.ts).
import RateLimiterRedis from 'rate-limiter-flexible/lib/RateLimiterRedis.js'
import RateLimiterRes from 'rate-limiter-flexible/lib/RateLimiterRes.js'
import type { SharedRedisClient } from '../cache/shared-redis-client.js'

/** One quota's fixed windows in Redis, shared by every instance that uses the same keys. */
export interface RedisWindowCount {
  /** Counts one request of `key`: how many its window holds now, and the ms until it ends. */
  consume(key: string): Promise<{ consumed: number; msBeforeNext: number }>
}

/**
 * A quota's count in Redis through rate-limiter-flexible (fixed windows of `windowSeconds`
 * from each key's first request). Its own module, imported by the rate limiter only when a
 * Redis client is given: a gateway that counts in process never loads or evaluates it.
 *
 * @example
 * const count = redisWindowCount(redis, { points: 300, windowSeconds: 60, keyPrefix: 'allmenning:rate:default' })
 * const { consumed } = await count.consume('203.0.113.7')
 */
export function redisWindowCount(
  client: SharedRedisClient,
  settings: { points: number; windowSeconds: number; keyPrefix: string },
): RedisWindowCount {
  const limiter = new RateLimiterRedis({
    points: settings.points,
    duration: settings.windowSeconds,
    keyPrefix: settings.keyPrefix,
    storeClient: client,
    useRedisPackage: true,
  })
  return {
    consume: (key) =>
      limiter.consume(key).then(
        (res) => ({ consumed: res.consumedPoints, msBeforeNext: res.msBeforeNext }),
        // Over the quota, rate-limiter-flexible rejects with the count itself: still a count.
        (outcome: unknown) => {
          if (!(outcome instanceof RateLimiterRes)) throw outcome
          return { consumed: outcome.consumedPoints, msBeforeNext: outcome.msBeforeNext }
        },
      ),
  }
}
