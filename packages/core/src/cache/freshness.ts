import type { CachedResponse } from './cached-response.js'

/** When a cached answer stops being fresh, in epoch milliseconds. */
export function freshUntil(entry: Pick<CachedResponse, 'storedAt' | 'ttlSeconds'>): number {
  return entry.storedAt + entry.ttlSeconds * 1000
}

/**
 * Whether a cached answer is still fresh at `now`: the one test the hot cache, a store read
 * and a shared flight's read all make, so they can never disagree about an entry.
 *
 * @example
 * isFresh({ storedAt: Date.now() - 5_000, ttlSeconds: 60 }, Date.now()) // true
 */
export function isFresh(entry: Pick<CachedResponse, 'storedAt' | 'ttlSeconds'>, now: number): boolean {
  return now < freshUntil(entry)
}
