import Keyv from 'keyv'
import {
  connectSharedRedis,
  type ConnectableRedisClient,
  type SharedRedisClientSetup,
} from './cache/connect-shared-redis.js'
import { createMemoryCacheStore } from './cache/memory-cache-store.js'
import { defaultUserAgent } from './gateway.js'
import type { GatewayOptions } from './gateway-options.js'
import type { RateLimitQuota } from './limit/rate-limit.js'

/** A variable of the environment whose value breaks its rule: the message names both. */
export class EnvironmentVariableError extends Error {
  constructor(
    readonly variable: string,
    rule: string,
    value: string,
  ) {
    super(`${variable} must be ${rule}, got ${JSON.stringify(value)}`)
    this.name = 'EnvironmentVariableError'
  }
}

/** How many proxies in front of the host to trust for the client address: none, all (`true`), or that many hops. */
export type TrustProxy = boolean | number

/** The Redis package a host passes when it may share state through `REDIS_URL` (the core imports none). */
export interface RedisPackage {
  createClient(setup: SharedRedisClientSetup): ConnectableRedisClient
  /** Given the client `createClient` made (typed `never`: node-redis's client types differ in generics the core does not know). */
  createKeyv(client: never): Keyv
}

/** What `gatewayOptionsFromEnv` read: options for `createGateway`, and the host's own proxy setting. */
export interface OptionsFromEnv {
  gateway: Pick<GatewayOptions, 'cache' | 'rateLimit' | 'sharedFlight' | 'upstream' | 'publicBaseUrl'>
  /** Express: `app.set('trust proxy', trustProxy)`; Koa: `app.proxy` (and `maxIpsCount` for a number of hops). */
  trustProxy: TrustProxy
}

/** The quotas when the environment says nothing: production-shaped, so a deployment is limited unless it opts out. */
export const defaultRateLimitQuota = '300/60'
export const defaultExpensiveQuota = '30/60'
export const defaultCacheMaxMb = 32

const quotaRule = '<requests>/<window seconds> with both whole numbers above 0 (e.g. 300/60), or off'

function quota(variable: string, value: string): RateLimitQuota | undefined {
  if (value === 'off') return undefined
  const match = /^(\d+)\/(\d+)$/.exec(value)
  const requests = Number(match?.[1])
  const windowSeconds = Number(match?.[2])
  if (!match || !(requests > 0) || !(windowSeconds > 0)) throw new EnvironmentVariableError(variable, quotaRule, value)
  return { requests, windowSeconds }
}

/** An e-mail address or an http(s) URL: what MET's terms ask for, and nothing that could break the header. */
function contact(value: string): string {
  const email = /^[^\s@()<>]+@[^\s@()<>]+\.[^\s@()<>]+$/.test(value)
  let url = false
  try {
    url = /^https?:$/.test(new URL(value).protocol) && !/[\s()]/.test(value)
  } catch {
    url = false
  }
  if (!email && !url)
    throw new EnvironmentVariableError('ALLMENNING_CONTACT', 'an e-mail address or an http(s) URL', value)
  return value
}

/** Links are built on it: a mistyped one would send every client to a broken link. */
function publicBaseUrl(value: string): string {
  let ok = false
  try {
    ok = /^https?:$/.test(new URL(value).protocol)
  } catch {
    ok = false
  }
  if (!ok) throw new EnvironmentVariableError('PUBLIC_BASE_URL', 'an http(s) URL', value)
  return value
}

function trustProxy(value: string): TrustProxy {
  if (value === 'off') return false
  if (value === 'on') return true
  if (/^\d+$/.test(value) && Number(value) > 0) return Number(value)
  throw new EnvironmentVariableError(
    'ALLMENNING_TRUST_PROXY',
    'off, on, or the number of proxies in front (a whole number above 0)',
    value,
  )
}

/**
 * Reads the examples' gateway settings from the environment, production-shaped by default:
 * rate limits on (`ALLMENNING_RATE_LIMIT`, 300 requests per 60 s, and
 * `ALLMENNING_RATE_LIMIT_EXPENSIVE`, 30 per 60 s on fan-out routes; `off` for none), an
 * in-memory cache bounded at `ALLMENNING_CACHE_MAX_MB` (32), or with `REDIS_URL` one Redis
 * client for the cache, the rate-limit counts and the single flight (set up by
 * `connectSharedRedis`, so a Redis outage never ends the process), `ALLMENNING_CONTACT` added
 * to the User-Agent sent upstream, `ALLMENNING_TRUST_PROXY` and `PUBLIC_BASE_URL`. An empty
 * value is the default; a bad value throws an `EnvironmentVariableError` naming the variable
 * and its rule, never a silent default.
 *
 * @example
 * import * as keyvRedis from '@keyv/redis'
 * const { gateway, trustProxy } = gatewayOptionsFromEnv(process.env, { redis: keyvRedis })
 * app.set('trust proxy', trustProxy)
 * app.use(createExpressMiddleware(createGateway({ sources: builtInSources(process.env), ...gateway })))
 */
export function gatewayOptionsFromEnv(
  env: Record<string, string | undefined>,
  host: { redis?: RedisPackage; log?: (message: string) => void } = {},
): OptionsFromEnv {
  const general = quota('ALLMENNING_RATE_LIMIT', env.ALLMENNING_RATE_LIMIT || defaultRateLimitQuota)
  // `off` for the stricter quota only: fan-out routes then count in the general quota alone.
  const expensive =
    quota('ALLMENNING_RATE_LIMIT_EXPENSIVE', env.ALLMENNING_RATE_LIMIT_EXPENSIVE || defaultExpensiveQuota) ?? general

  const cacheMb = env.ALLMENNING_CACHE_MAX_MB || String(defaultCacheMaxMb)
  if (!/^\d+(\.\d+)?$/.test(cacheMb) || !(Number(cacheMb) > 0))
    throw new EnvironmentVariableError('ALLMENNING_CACHE_MAX_MB', 'a number of MiB above 0', cacheMb)
  const maxBytes = Math.round(Number(cacheMb) * 1024 * 1024)

  const gateway: OptionsFromEnv['gateway'] = {
    upstream: {
      userAgent: env.ALLMENNING_CONTACT
        ? `${defaultUserAgent} (+${contact(env.ALLMENNING_CONTACT)})`
        : defaultUserAgent,
    },
    ...(env.PUBLIC_BASE_URL ? { publicBaseUrl: publicBaseUrl(env.PUBLIC_BASE_URL) } : {}),
  }
  const proxy = trustProxy(env.ALLMENNING_TRUST_PROXY || 'off')

  let redis: ConnectableRedisClient | undefined
  if (env.REDIS_URL) {
    if (!/^rediss?:\/\/[^\s]+$/.test(env.REDIS_URL))
      throw new EnvironmentVariableError('REDIS_URL', 'a redis:// or rediss:// URL', env.REDIS_URL)
    if (!host.redis)
      throw new EnvironmentVariableError('REDIS_URL', 'unset for a host that passes no Redis package', env.REDIS_URL)
    redis = connectSharedRedis(host.redis.createClient, env.REDIS_URL, host.log)
    gateway.cache = host.redis.createKeyv(redis as never)
    gateway.sharedFlight = { redis }
  } else {
    // In memory and bounded: the least recently used answers go first past the bound.
    gateway.cache = new Keyv({ store: createMemoryCacheStore({ maxBytes }) })
  }
  if (general) gateway.rateLimit = { quota: general, expensive: expensive!, ...(redis ? { redis } : {}) }
  return { gateway, trustProxy: proxy }
}
