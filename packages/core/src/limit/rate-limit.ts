import { GatewayError } from '../http/gateway-error.js'
import type { GatewayRequest } from '../http/gateway-request.js'
import { createRedisOutage, type RedisOutage } from '../cache/redis-outage.js'
import type { SharedRedisClient } from '../cache/shared-redis-client.js'
import type { GatewayObservers } from '../observe/gateway-observer.js'
import { integerText } from '../util/integer-text.js'
import { FixedWindowCounter } from './fixed-window-counter.js'
import type { RedisWindowCount } from './redis-window-count.js'

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

/**
 * The IETF RateLimit-Policy and RateLimit headers of one request, to send with its answer. A
 * type, not an interface, so that it is a `Record<string, string>` as headers are elsewhere.
 */
export type RateLimitHeaders = { 'ratelimit-policy': string; ratelimit: string }

/** What the limiter says about one request. */
export interface RateVerdict {
  headers: RateLimitHeaders
  /** Set when the request is over a quota: the 429 to answer. */
  refusal?: GatewayError
}

/** Counts requests per client and decides. See {@link createRateLimiter}. */
export interface RateLimiter {
  /**
   * The verdict on one request: at once when counted in process, a promise when counted in
   * Redis; undefined when the request has no client key and is not limited.
   */
  check(request: GatewayRequest, expensive: boolean): RateVerdict | Promise<RateVerdict> | undefined
}

interface Counter {
  name: 'default' | 'expensive'
  quota: RateLimitQuota
  local: FixedWindowCounter
}

/** One request counted against one quota. */
interface Count {
  consumed: number
  msBeforeNext: number
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not count a request within ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/**
 * Creates the gateway's rate limiter (spec section 7: 429): fixed windows per client and
 * quota, counted in process (a map lookup per quota, answered at once), or in Redis through
 * rate-limiter-flexible when given a client, so every instance shares the counts. While that
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
  outage: RedisOutage | undefined = options.redis &&
    createRedisOutage(options.redis, onError, { what: 'rate limits are counted in process', hearErrors: true }),
  observer?: GatewayObservers,
): RateLimiter {
  const prefix = options.redisPrefix ?? 'allmenning:rate'
  const timeoutMs = options.redisTimeoutMs ?? 200
  const counter = (name: Counter['name'], quota: RateLimitQuota): Counter => {
    if (!(quota.requests > 0 && quota.windowSeconds > 0))
      throw new TypeError(
        `rateLimit.${name === 'default' ? 'quota' : name}: requests and windowSeconds must be positive`,
      )
    return { name, quota, local: new FixedWindowCounter(quota.windowSeconds * 1000) }
  }
  const general = counter('default', options.quota ?? { requests: 300, windowSeconds: 60 })
  const strict = counter('expensive', options.expensive ?? { requests: 30, windowSeconds: 60 })
  const redis = options.redis
  // The Redis counts, made with the first request counted in Redis: rate-limiter-flexible is
  // then imported, so a gateway that counts in process never loads it (nor a Lambda's cold start).
  let shared: Promise<{ general: RedisWindowCount; strict: RedisWindowCount }> | undefined
  let sharedFailed = false
  const sharedCounts = (client: SharedRedisClient) =>
    (shared ??= import('./redis-window-count.js').then(({ redisWindowCount }) => {
      const of = (c: Counter) =>
        redisWindowCount(client, {
          points: c.quota.requests,
          windowSeconds: c.quota.windowSeconds,
          keyPrefix: `${prefix}:${c.name}`,
        })
      return { general: of(general), strict: of(strict) }
    }))
  const clientKey = options.clientKey ?? ((request: GatewayRequest) => request.clientAddress)
  const policy = (c: Counter) => `"${c.name}";q=${c.quota.requests};w=${c.quota.windowSeconds}`
  // The policies never change: written once, not per request.
  const generalPolicy = policy(general)
  const bothPolicies = `${generalPolicy}, ${policy(strict)}`

  function countHere(c: Counter, key: string): Count {
    const now = Date.now()
    const window = c.local.hit(key, now)
    return { consumed: window.consumed, msBeforeNext: window.resetsAt - now }
  }

  /** One count in Redis; in process when Redis is away, down or slow (limits still hold, per instance, and it is said). */
  async function countShared(c: Counter, shared: RedisWindowCount, key: string): Promise<Count> {
    try {
      return await withTimeout(shared.consume(key), timeoutMs)
    } catch (error) {
      outage!.report(error)
      return countHere(c, key)
    }
  }

  // The requests left change with every request: written by integerText, which leaves nothing
  // behind in V8's table of numbers' texts (the seconds left are below 1000 as a rule).
  const state = (c: Counter, count: Count) =>
    `"${c.name}";r=${integerText(Math.max(0, c.quota.requests - count.consumed))};t=${Math.max(0, Math.ceil(count.msBeforeNext / 1000))}`

  function decide(request: GatewayRequest, counts: Count, strictCount?: Count): RateVerdict {
    const headers = strictCount
      ? { 'ratelimit-policy': bothPolicies, ratelimit: `${state(general, counts)}, ${state(strict, strictCount)}` }
      : { 'ratelimit-policy': generalPolicy, ratelimit: state(general, counts) }
    const overGeneral = counts.consumed > general.quota.requests
    const overStrict = strictCount !== undefined && strictCount.consumed > strict.quota.requests
    if (!overGeneral && !overStrict) return { headers }
    const waits = [...(overGeneral ? [counts.msBeforeNext] : []), ...(overStrict ? [strictCount.msBeforeNext] : [])]
    const wait = Math.max(1, ...waits.map((ms) => Math.ceil(ms / 1000)))
    const c = overGeneral ? general : strict
    observer?.rateLimited({ quota: c.name, request })
    const refusal = new GatewayError(
      429,
      'rate_limited',
      `Too many requests: this client may make ${c.quota.requests} ${c.name === 'expensive' ? 'requests to expensive routes' : 'requests'} per ${c.quota.windowSeconds} s; try again in ${wait} s`,
      { headers: { ...headers, 'retry-after': String(wait) } },
    )
    return { headers, refusal }
  }

  return {
    check(request, expensive) {
      const key = clientKey(request)
      if (key === undefined || key === '') return undefined
      if (!redis || sharedFailed || !outage?.usable()) {
        return decide(request, countHere(general, key), expensive ? countHere(strict, key) : undefined)
      }
      return sharedCounts(redis).then(
        (counts) => {
          const counted = [
            countShared(general, counts.general, key),
            ...(expensive ? [countShared(strict, counts.strict, key)] : []),
          ]
          return Promise.all(counted).then(([generalCount, strictCount]) => decide(request, generalCount!, strictCount))
        },
        // The Redis counts could not be made (rate-limiter-flexible left out of a bundle, say):
        // said once, and from then on counted in process, as during an outage, not refused.
        (error: unknown) => {
          if (!sharedFailed) {
            sharedFailed = true
            onError(
              new Error('Rate limits are counted in process: the code that counts them in Redis could not be loaded', {
                cause: error,
              }),
            )
          }
          return decide(request, countHere(general, key), expensive ? countHere(strict, key) : undefined)
        },
      )
    },
  }
}
