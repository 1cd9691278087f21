import { createRedisOutage, type RedisOutage } from './redis-outage.js'
import type { SharedRedisClient } from './shared-redis-client.js'

/**
 * The options that may share a Redis client, as `GatewayOptions` gives them: the only slice of
 * the options this module reads, so the cache knows nothing of the gateway above it.
 */
export interface RedisUsers {
  rateLimit?: { redis?: SharedRedisClient }
  sharedFlight?: { redis?: SharedRedisClient }
}

/**
 * One outage watch per Redis client: the rate limiter and the shared single flight usually
 * share a client, whose errors are then heard and reported once, saying what each user of it
 * does meanwhile.
 *
 * @example
 * const report = (error: unknown) => onError(error, 'shared-state')
 * const outageOf = outagePerRedisClient(options, report)
 * if (options.sharedFlight) createSharedFlight(options.sharedFlight, report, outageOf(options.sharedFlight.redis))
 */
export function outagePerRedisClient(
  options: RedisUsers,
  report: (error: unknown) => void,
): (redis: SharedRedisClient) => RedisOutage {
  const outages = new Map<SharedRedisClient, RedisOutage>()
  return (redis) => {
    let outage = outages.get(redis)
    if (!outage) {
      const what = [
        options.rateLimit?.redis === redis && 'rate limits are counted in process',
        options.sharedFlight?.redis === redis && 'each instance calls its upstreams alone',
      ].filter(Boolean)
      outage = createRedisOutage(redis, report, { what: what.join(' and '), hearErrors: true })
      outages.set(redis, outage)
    }
    return outage
  }
}
