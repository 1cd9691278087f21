import type { CachedResponse } from './cached-response.js'
import { isFresh } from './freshness.js'
import { createLruMap } from '../util/lru-map.js'

/**
 * The most recently used fresh answers, kept in process in front of the Keyv store. A hit
 * here skips the store round trip, its deserialization and its timeout timer; it holds
 * only answers that are still fresh, so it never changes what a client is told.
 */
export interface HotCache {
  /** The entry when it is still fresh at `now`; stale entries are dropped. */
  fresh(key: string, now: number): CachedResponse | undefined
  put(key: string, entry: CachedResponse): void
}

/**
 * @param maxEntries how many answers to hold; the least recently used go first. 0 disables it.
 * @param maxBytes how many bytes to hold in all, each body counted twice (its text, and the bytes
 *   its hits write); a larger answer stays in the store only.
 */
export function createHotCache(maxEntries: number, maxBytes: number): HotCache {
  const entries = createLruMap<string, CachedResponse>(maxEntries, {
    maxWeight: maxBytes,
    // The text and the UTF-8 bytes its hits write (see entryBytes), both held while it is here.
    weigh: (entry) => 2 * entry.bytes,
  })
  return {
    fresh(key, now) {
      const entry = entries.get(key)
      if (!entry) return undefined
      if (isFresh(entry, now)) return entry
      entries.delete(key)
      return undefined
    },
    put: (key, entry) => entries.set(key, entry),
  }
}
