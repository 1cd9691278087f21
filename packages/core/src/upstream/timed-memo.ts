import type { PlausibilityCheck } from './plausibility-check.js'

/** Settings of a {@link createTimedMemo} memo. */
export interface TimedMemoOptions<V = unknown> {
  /** How long a loaded value is fresh, in milliseconds. */
  ttlMs: number
  /**
   * How long after `ttlMs` a value may still be served while a background refresh runs
   * (stale-while-revalidate), in milliseconds. 0 (the default) means a value past its TTL is
   * never served: the caller waits for a new load. `Infinity` serves the last value for ever.
   */
  staleMs?: number
  /**
   * How long a failed load is remembered and rethrown without calling the loader again, in
   * milliseconds. Protects upstreams that ask not to be polled; 0 (the default) retries at once.
   * After a failed background refresh, this is also the pause before the next refresh attempt.
   */
  errorTtlMs?: number
  /**
   * Judges each loaded value against the last good one before it is kept. An implausible value
   * (an empty reference list) is handled as a failed load: it is never remembered, the last
   * good value keeps being served within `staleMs`, callers with nothing to fall back on get
   * the check's error, and the loader is asked again after `errorTtlMs`.
   */
  plausible?: PlausibilityCheck<V>
  /** Most keys kept; the least recently used key is evicted first. Default 1000. */
  maxEntries?: number
  /** Hears the error of a failed background refresh, which no caller is waiting for. */
  onBackgroundError?: (error: unknown, key: string) => void
  /** Clock in milliseconds; `Date.now` by default. */
  now?: () => number
}

/** A per-key memo of an async loader. See {@link createTimedMemo}. */
export interface TimedMemo<V> {
  /** The value for `key`: memoized, shared with concurrent callers, or loaded with `load`. */
  get(key: string, load: () => Promise<V>): Promise<V>
  /** The value for `key` while it may still be served (fresh or stale), without loading anything. */
  peek(key: string): V | undefined
  delete(key: string): void
  clear(): void
  /** Number of keys held. */
  readonly size: number
}

interface Entry<V> {
  /** Boxed so that `undefined` can be a memoized value too. */
  value?: { v: V; loadedAt: number }
  pending?: Promise<V>
  failure?: { error: unknown; at: number }
  /** The last value that passed, kept after it expired only to judge the next one by. */
  lastGood?: { v: V; loadedAt: number }
}

/**
 * Memoizes an async loader per key. A value stays fresh for `ttlMs`; identical concurrent
 * calls share one load (single flight); with `staleMs`, a value past its TTL is returned at
 * once while one background load refreshes it, and a failed refresh keeps the old value.
 * The loader is given per call, so it can use the caller's context (for example an upstream
 * client bound to the current request).
 *
 * @example
 * const names = createTimedMemo<Map<string, string>>({ ttlMs: 86_400_000, staleMs: 7 * 86_400_000 })
 * const airports = await names.get('airports', () => feeds.airportNames(client))
 */
export function createTimedMemo<V>(options: TimedMemoOptions<V>): TimedMemo<V> {
  const ttlMs = options.ttlMs
  const staleMs = options.staleMs ?? 0
  const errorTtlMs = options.errorTtlMs ?? 0
  const maxEntries = Math.max(1, options.maxEntries ?? 1000)
  // Read Date.now at call time so that test clocks installed later are honoured.
  const now = options.now ?? (() => Date.now())
  const entries = new Map<string, Entry<V>>()

  /** Moves `key` to the young end of the map, so that eviction takes the least recently used. */
  function touch(key: string, entry: Entry<V>): void {
    entries.delete(key)
    entries.set(key, entry)
  }

  function evict(): void {
    while (entries.size > maxEntries) {
      const oldest = entries.keys().next()
      if (oldest.done) return
      entries.delete(oldest.value)
    }
  }

  function reportBackground(error: unknown, key: string): void {
    try {
      options.onBackgroundError?.(error, key)
    } catch {
      // A throwing listener must not turn into an unhandled rejection either.
    }
  }

  const plausible = options.plausible

  function startLoad(key: string, entry: Entry<V>, load: () => Promise<V>, background: boolean, previous: { v: V } | undefined): Promise<V> {
    let promise: Promise<V>
    try {
      promise = Promise.resolve(load())
    } catch (error) {
      promise = Promise.reject(error)
    }
    if (plausible) {
      promise = promise.then((v) => {
        const problem = plausible(v, previous?.v)
        if (problem) throw problem
        return v
      })
    }
    entry.pending = promise
    // This handler also marks the promise as handled, so a background refresh that nobody
    // awaits can fail without an unhandled rejection.
    promise.then(
      (v) => {
        if (entry.pending === promise) entry.pending = undefined
        entry.value = { v, loadedAt: now() }
        entry.failure = undefined
        entry.lastGood = undefined
      },
      (error: unknown) => {
        if (entry.pending === promise) entry.pending = undefined
        entry.failure = { error, at: now() }
        if (background) reportBackground(error, key)
        if (!entry.value && !entry.lastGood && errorTtlMs <= 0 && entries.get(key) === entry) entries.delete(key)
      },
    )
    return promise
  }

  return {
    get(key, load) {
      const t = now()
      let entry = entries.get(key)
      if (!entry) {
        entry = {}
        entries.set(key, entry)
        evict()
        return startLoad(key, entry, load, false, undefined)
      }
      touch(key, entry)
      const value = entry.value
      const age = value ? t - value.loadedAt : Infinity
      if (value && age < ttlMs) return Promise.resolve(value.v)
      const recentFailure = entry.failure !== undefined && t - entry.failure.at < errorTtlMs
      if (value && age < ttlMs + staleMs) {
        if (!entry.pending && !recentFailure) startLoad(key, entry, load, true, value)
        return Promise.resolve(value.v)
      }
      if (entry.pending) return entry.pending
      // Too old to serve: drop it so that peek() does not hand out expired data either. It is
      // still the yardstick a new value is judged by.
      entry.value = undefined
      if (value) entry.lastGood = value
      if (recentFailure && entry.failure) return Promise.reject(entry.failure.error)
      return startLoad(key, entry, load, false, value ?? entry.lastGood)
    },
    peek(key) {
      const value = entries.get(key)?.value
      if (!value || now() - value.loadedAt >= ttlMs + staleMs) return undefined
      return value.v
    },
    delete(key) {
      entries.delete(key)
    },
    clear() {
      entries.clear()
    },
    get size() {
      return entries.size
    },
  }
}
