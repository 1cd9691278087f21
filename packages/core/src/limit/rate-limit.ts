import type { RateLimiterAbstract } from 'rate-limiter-flexible'
// The files, not the index: it loads every store the package offers (rate-limiter-flexible-files.d.ts).
import RateLimiterMemory from 'rate-limiter-flexible/lib/RateLimiterMemory.js'
import RateLimiterRedis from 'rate-limiter-flexible/lib/RateLimiterRedis.js'
import RateLimiterRes from 'rate-limiter-flexible/lib/RateLimiterRes.js'
import { GatewayError } from '../http/gateway-error.js'
import type { GatewayRequest } from '../http/gateway-request.js'
import { createRedisOutage, type RedisOutage } from '../cache/redis-outage.js'
import type { SharedRedisClient } from '../cache/shared-redis-client.js'
import type { GatewayObservers } from '../observe/gateway-observer.js'

/** A number of requests per window, for one client. */
export interface RateLimitQuota {
  requests: number
  windowSeconds: number
}

/** Rate limiting: the `rateLimit` option of `createGateway`. */
export interface RateLimitOptions {
  /** Every client's quota over every route; 300 requests per 60 s by default. */
  quota?: RateLimitQuota
  /**
   * A stricter quota for expensive routes (those that fan out to many upstreams: `/sok/alle`,
   * `/steder/...`), counted besides the general one; 30 requests per 60 s by default.
   */
  expensive?: RateLimitQuota
  /**
   * Who a request counts against: an API key header, a user id. By default the client address
   * the adapter gives (`clientAddress`). A request without a key is not limited.
   */
  clientKey?: (request: GatewayRequest) => string | undefined
  /**
   * A node-redis client, to share the counts among every instance that uses the same Redis;
   * counts are kept in process without one. When Redis fails or is slow, or while the client is
   * not connected, counting goes on in process (each instance then allows a client the whole
   * quota) and the failure is reported to `onError`; counts are shared again once Redis is back.
   */
  redis?: SharedRedisClient
  /** Prefix of the Redis keys; `allmenning:rate` by default. */
  redisPrefix?: string
  /** Time limit for one Redis count, in milliseconds; 200 by default. */
  redisTimeoutMs?: number
}

/** What the limiter says about one request. */
export interface RateVerdict {
  /** The IETF RateLimit-Policy and RateLimit headers, to send with the answer. */
  headers: Record<string, string>
  /** Set when the request is over a quota: the 429 to answer. */
  refusal?: GatewayError
}

/** Counts requests per client and decides. See {@link createRateLimiter}. */
export interface RateLimiter {
  check(request: GatewayRequest, expensive: boolean): Promise<RateVerdict> | undefined
}

interface Counter {
  name: 'default' | 'expensive'
  quota: RateLimitQuota
  local: RateLimiterAbstract
  shared?: RateLimiterAbstract
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not count a request within ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/**
 * Creates the gateway's rate limiter (spec section 7: 429). Counting is rate-limiter-flexible's,
 * fixed windows per client and quota; in memory, or in Redis when given a client. While that
 * client is not connected nothing is sent to it (see {@link createRedisOutage}); `outage` is the
 * one the gateway shares with its single flight when both use the same client.
 *
 * @example
 * const limiter = createRateLimiter({ quota: { requests: 100, windowSeconds: 60 } }, console.error)
 * const verdict = await limiter.check(request, false)
 */
export function createRateLimiter(
  options: RateLimitOptions,
  onError: (error: unknown) => void,
  outage: RedisOutage | undefined = options.redis && createRedisOutage(options.redis, onError, { what: 'rate limits are counted in process', hearErrors: true }),
  observer?: GatewayObservers,
): RateLimiter {
  const prefix = options.redisPrefix ?? 'allmenning:rate'
  const timeoutMs = options.redisTimeoutMs ?? 200
  const counter = (name: Counter['name'], quota: RateLimitQuota): Counter => {
    if (!(quota.requests > 0 && quota.windowSeconds > 0)) throw new TypeError(`rateLimit.${name === 'default' ? 'quota' : name}: requests and windowSeconds must be positive`)
    const settings = { points: quota.requests, duration: quota.windowSeconds, keyPrefix: `${prefix}:${name}` }
    return {
      name,
      quota,
      local: new RateLimiterMemory(settings),
      ...(options.redis ? { shared: new RateLimiterRedis({ ...settings, storeClient: options.redis, useRedisPackage: true }) } : {}),
    }
  }
  const general = counter('default', options.quota ?? { requests: 300, windowSeconds: 60 })
  const strict = counter('expensive', options.expensive ?? { requests: 30, windowSeconds: 60 })
  const clientKey = options.clientKey ?? ((request: GatewayRequest) => request.clientAddress)

  /** One count: a RateLimiterRes whether within the quota or over it. */
  async function count(c: Counter, key: string): Promise<RateLimiterRes> {
    const consume = async (limiter: RateLimiterAbstract) => {
      try {
        return await limiter.consume(key)
      } catch (outcome) {
        if (outcome instanceof RateLimiterRes) return outcome
        throw outcome
      }
    }
    // Redis away, down or slow: keep limiting, per instance, and say so.
    if (!c.shared || !outage?.usable()) return consume(c.local)
    try {
      return await withTimeout(consume(c.shared), timeoutMs)
    } catch (error) {
      outage.report(error)
      return consume(c.local)
    }
  }

  const policy = (c: Counter) => `"${c.name}";q=${c.quota.requests};w=${c.quota.windowSeconds}`
  const state = (c: Counter, res: RateLimiterRes) =>
    `"${c.name}";r=${Math.max(0, res.remainingPoints)};t=${Math.max(0, Math.ceil(res.msBeforeNext / 1000))}`

  return {
    check(request, expensive) {
      const key = clientKey(request)
      if (key === undefined || key === '') return undefined
      const counters = expensive ? [general, strict] : [general]
      return Promise.all(counters.map((c) => count(c, key))).then((results) => {
        const headers = {
          'ratelimit-policy': counters.map(policy).join(', '),
          ratelimit: counters.map((c, i) => state(c, results[i]!)).join(', '),
        }
        const over = counters.map((c, i) => ({ c, res: results[i]! })).filter(({ c, res }) => res.consumedPoints > c.quota.requests)
        if (over.length === 0) return { headers }
        const wait = Math.max(1, ...over.map(({ res }) => Math.ceil(res.msBeforeNext / 1000)))
        const { c } = over[0]!
        observer?.rateLimited({ quota: c.name, request })
        const refusal = new GatewayError(
          429,
          'rate_limited',
          `Too many requests: this client may make ${c.quota.requests} ${c.name === 'expensive' ? 'requests to expensive routes' : 'requests'} per ${c.quota.windowSeconds} s; try again in ${wait} s`,
          { headers: { ...headers, 'retry-after': String(wait) } },
        )
        return { headers, refusal }
      })
    },
  }
}
