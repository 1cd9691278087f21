import type { GatewayOptions } from '../gateway-options.js'
import { createRedisOutage, type RedisOutage } from './redis-outage.js'
import type { SharedRedisClient } from './shared-redis-client.js'

/**
 * One outage watch per Redis client: the rate limiter and the shared single flight usually
 * share a client, whose errors are then heard and reported once, saying what each user of it
 * does meanwhile.
 *
 * @example
 * const report = (error: unknown) => onError(error, 'shared-state')
 * const outageOf = createRedisOutages(options, report)
 * if (options.sharedFlight) createSharedFlight(options.sharedFlight, report, outageOf(options.sharedFlight.redis))
 */
export function createRedisOutages(options: Pick<GatewayOptions, 'rateLimit' | 'sharedFlight'>, report: (error: unknown) => void): (redis: SharedRedisClient) => RedisOutage {
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
