import type Keyv from 'keyv'

/** A cached, already serialized response. */
export interface CachedResponse {
  /** 404 for a remembered "no such entity"; a 200 answer otherwise (absent in entries stored before). */
  status?: 200 | 404
  body: string
  /** Byte length of `body`, measured once when it was stored. */
  bytes: number
  etag: string
  /** Epoch milliseconds when the upstream answered. */
  storedAt: number
  /** Seconds the entry counts as fresh. */
  ttlSeconds: number
}

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

function isCachedResponse(value: unknown): value is CachedResponse {
  const v = value as CachedResponse | null
  return typeof v?.body === 'string' && typeof v.bytes === 'number' && typeof v.etag === 'string' && typeof v.storedAt === 'number' && typeof v.ttlSeconds === 'number'
}

/**
 * Wraps a Keyv instance so that a failing or slow store never fails a request.
 */
export function createBestEffortCache(
  keyv: Keyv,
  options: { timeoutMs: number; onError: (error: unknown) => void },
): BestEffortCache {
  // Keyv re-emits store errors as events; without a listener they would be thrown.
  keyv.on('error', options.onError)
  return {
    async get(key) {
      try {
        const value: unknown = await withTimeout(keyv.get(key), options.timeoutMs)
        return isCachedResponse(value) ? value : undefined
      } catch (error) {
        options.onError(error)
        return undefined
      }
    },
    async set(key, value, retainSeconds) {
      try {
        // Keyv TTLs are milliseconds.
        await withTimeout(keyv.set(key, value, retainSeconds * 1000), options.timeoutMs)
      } catch (error) {
        options.onError(error)
      }
    },
  }
}
