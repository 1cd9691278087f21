import Keyv from 'keyv'
import { describe, expect, it } from 'vitest'
import type { ConnectableRedisClient, SharedRedisClientSetup } from './cache/connect-shared-redis.js'
import { defaultUserAgent } from './gateway.js'
import { gatewayOptionsFromEnv } from './gateway-options-from-env.js'

/** A stand-in for `@keyv/redis`: records the setup it was given and the listeners added. */
function fakeRedisPackage() {
  const made: { setup?: SharedRedisClientSetup; listeners: ((error: Error) => void)[]; connected: number } = {
    listeners: [],
    connected: 0,
  }
  const client = {
    isReady: false,
    on: (_event: 'error', listener: (error: Error) => void) => made.listeners.push(listener),
    connect: async () => {
      made.connected++
      throw new Error('ECONNREFUSED')
    },
    eval: async () => 0,
    set: async () => null,
    get: async () => null,
    del: async () => 0,
  } as ConnectableRedisClient
  const keyv = new Keyv()
  return {
    made,
    client,
    keyv,
    redis: {
      createClient: (setup: SharedRedisClientSetup) => ((made.setup = setup), client),
      createKeyv: (given: never) => (given === (client as never) ? keyv : new Keyv()),
    },
  }
}

describe('gatewayOptionsFromEnv', () => {
  it('is production-shaped with nothing set: default quotas, no proxy trusted, the plain User-Agent', () => {
    const { gateway, trustProxy } = gatewayOptionsFromEnv({})
    expect(gateway.rateLimit).toEqual({
      quota: { requests: 300, windowSeconds: 60 },
      expensive: { requests: 30, windowSeconds: 60 },
    })
    expect(gateway.upstream).toEqual({ userAgent: defaultUserAgent })
    expect(gateway.sharedFlight).toBeUndefined()
    expect(trustProxy).toBe(false)
  })

  it('reads quotas, off, proxy hops and the contact; an empty value is the default', () => {
    const { gateway, trustProxy } = gatewayOptionsFromEnv({
      ALLMENNING_RATE_LIMIT: '100/10',
      ALLMENNING_RATE_LIMIT_EXPENSIVE: 'off',
      ALLMENNING_TRUST_PROXY: '2',
      ALLMENNING_CONTACT: 'https://data.example.no/contact',
      ALLMENNING_CACHE_MAX_MB: '',
    })
    // The stricter quota off: fan-out routes count in the general quota alone.
    expect(gateway.rateLimit).toEqual({
      quota: { requests: 100, windowSeconds: 10 },
      expensive: { requests: 100, windowSeconds: 10 },
    })
    expect(gateway.upstream?.userAgent).toBe(`${defaultUserAgent} (+https://data.example.no/contact)`)
    expect(trustProxy).toBe(2)
    expect(gatewayOptionsFromEnv({ ALLMENNING_TRUST_PROXY: 'on' }).trustProxy).toBe(true)
    expect(gatewayOptionsFromEnv({ ALLMENNING_RATE_LIMIT: 'off' }).gateway.rateLimit).toBeUndefined()
  })

  it('refuses a bad value naming the variable, the rule and the value', () => {
    expect(() => gatewayOptionsFromEnv({ ALLMENNING_RATE_LIMIT: '0/60' })).toThrow(
      'ALLMENNING_RATE_LIMIT must be <requests>/<window seconds> with both whole numbers above 0 (e.g. 300/60), or off, got "0/60"',
    )
    expect(() => gatewayOptionsFromEnv({ ALLMENNING_CONTACT: 'ops@example.no) evil' })).toThrow(
      /^ALLMENNING_CONTACT must be/,
    )
    expect(() => gatewayOptionsFromEnv({ ALLMENNING_TRUST_PROXY: '0' })).toThrow(/^ALLMENNING_TRUST_PROXY must be/)
    expect(() => gatewayOptionsFromEnv({ ALLMENNING_CACHE_MAX_MB: '-1' })).toThrow(/^ALLMENNING_CACHE_MAX_MB must be/)
    expect(() => gatewayOptionsFromEnv({ PUBLIC_BASE_URL: 'data.example.no' })).toThrow(
      'PUBLIC_BASE_URL must be an http(s) URL, got "data.example.no"',
    )
    expect(() => gatewayOptionsFromEnv({ REDIS_URL: 'redis://127.0.0.1:6379' })).toThrow(
      'REDIS_URL must be unset for a host that passes no Redis package, got "redis://127.0.0.1:6379"',
    )
  })

  it('with REDIS_URL, one client for the cache, the counts and the single flight, set up never to end the process', async () => {
    const fake = fakeRedisPackage()
    const logged: string[] = []
    const { gateway } = gatewayOptionsFromEnv(
      { REDIS_URL: 'redis://127.0.0.1:6379' },
      { redis: fake.redis, log: (line) => logged.push(line) },
    )
    expect(gateway.cache).toBe(fake.keyv)
    expect(gateway.rateLimit?.redis).toBe(fake.client)
    expect(gateway.sharedFlight?.redis).toBe(fake.client)
    expect(fake.made.setup).toMatchObject({ url: 'redis://127.0.0.1:6379', disableOfflineQueue: true })
    // Never gives up: a number (a delay) however many retries, at most 2 s.
    expect([0, 1, 5, 1000].map((n) => fake.made.setup!.socket.reconnectStrategy(n))).toEqual([100, 200, 2000, 2000])
    expect(fake.made.connected).toBe(1)
    // A refused connect() is not an unhandled rejection, and errors are logged, not thrown.
    await new Promise((resolve) => setTimeout(resolve, 0))
    fake.made.listeners.forEach((listener) => {
      listener(new Error('Socket closed unexpectedly'))
    })
    expect(logged).toEqual(['Redis: Socket closed unexpectedly'])
  })
})
