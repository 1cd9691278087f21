import type Keyv from 'keyv'
import { cachedEntryProblem } from './cached-entry-check.js'
import type { CachedResponse } from './cached-response.js'
import { createRedisOutage, type RedisConnectionFlags, type RedisErrorEvents } from './redis-outage.js'

/**
 * The gateway's view of the Keyv store: every read and write is bounded by a timeout and
 * every failure is swallowed (and reported), because the cache only ever makes answers
 * faster; it must never make them fail.
 */
export interface BestEffortCache {
  get(key: string): Promise<CachedResponse | undefined>
  /** Keeps the entry `retainSeconds` in the store, longer than its freshness, for stale answers. */
  set(key: string, value: CachedResponse, retainSeconds: number): Promise<void>
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`cache store did not answer within ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/**
 * What was under a key in the cache store was not served: it is not an entry this gateway
 * wrote (another app's value, a damaged or forged one). Reported to `onError` as `cache`.
 */
export class RejectedCacheEntryError extends Error {
  constructor(
    readonly key: string,
    readonly problem: string,
  ) {
    super(`Ignored the value under cache key ${JSON.stringify(key.slice(0, 200))}: ${problem}`)
    this.name = 'RejectedCacheEntryError'
  }
}

/** The node-redis client of a Keyv store from `@keyv/redis` (its public `client`), if it has one. */
function storeClient(keyv: Keyv): (RedisConnectionFlags & RedisErrorEvents) | undefined {
  const client: unknown = (keyv.store as { client?: unknown } | undefined)?.client
  return typeof client === 'object' && client !== null && 'isReady' in client
    ? (client as RedisConnectionFlags & RedisErrorEvents)
    : undefined
}

/**
 * Wraps a Keyv instance so that a failing or slow store never fails a request, and what it
 * holds is checked before it is served (see {@link cachedEntryProblem}). A Redis store
 * (`@keyv/redis`) whose connection is down is not asked at all until it is back, and each
 * distinct error of an outage is reported once (see {@link createRedisOutage}).
 *
 * @example
 * const cache = createBestEffortCache(new Keyv(), { timeoutMs: 200, maxEntryBytes: 8 << 20, onError: console.error })
 */
export function createBestEffortCache(
  keyv: Keyv,
  options: { timeoutMs: number; maxEntryBytes: number; onError: (error: unknown) => void },
): BestEffortCache {
  const outage = createRedisOutage(storeClient(keyv), options.onError, {
    what: 'the cache is skipped',
    connectsOnDemand: true,
  })
  // Keyv re-emits store errors (a Redis store's connection errors too) as events; without a
  // listener they would be thrown.
  keyv.on('error', outage.report)
  return {
    async get(key) {
      if (!outage.usable()) return undefined
      try {
        const value: unknown = await withTimeout(keyv.get(key), options.timeoutMs)
        if (value === undefined || value === null) return undefined
        const problem = cachedEntryProblem(value, Date.now(), options.maxEntryBytes)
        if (problem === undefined) return value as CachedResponse
        options.onError(new RejectedCacheEntryError(key, problem))
        return undefined
      } catch (error) {
        outage.report(error)
        return undefined
      }
    },
    async set(key, value, retainSeconds) {
      // What would be refused when read back is not written.
      if (value.bytes > options.maxEntryBytes || !outage.usable()) return
      try {
        // Keyv TTLs are milliseconds.
        await withTimeout(keyv.set(key, value, retainSeconds * 1000), options.timeoutMs)
      } catch (error) {
        outage.report(error)
      }
    },
  }
}
