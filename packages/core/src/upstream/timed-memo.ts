import { createLruMap } from '../util/lru-map.js'
import type { PlausibilityCheck } from './plausibility-check.js'
import type { QueryValues, UpstreamClient } from './upstream-client.js'
import { UpstreamError } from '../http/upstream-error.js'

/** Settings of a {@link createTimedMemo} memo. */
export interface TimedMemoOptions<V = unknown> {
  /**
   * How long a loaded value is fresh, in milliseconds. For {@link TimedMemo.fetch}, the
   * lifetime of an answer whose `Expires` says nothing.
   */
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
   * How long past its expiry the last value may stand in when a new load fails with an
   * `UpstreamError` (stale-if-error); 0 (the default) lets the failure through. Meant for
   * reference lists that change rarely. The caller that met the failure is told (`stale` in
   * {@link MemoAnswer}); the value then stands in for `errorRetryMs` before the loader is
   * asked again.
   */
  staleOnErrorMs?: number
  /** With `staleOnErrorMs`: how long a value standing in is served before asking again. Default 60 000. */
  errorRetryMs?: number
  /**
   * Judges each loaded value against the last good one before it is kept. An implausible value
   * (an empty reference list) is handled as a failed load: it is never remembered (nor, with
   * `fetch`, its validators), the last good value keeps being served within `staleMs` or
   * `staleOnErrorMs`, callers with nothing to fall back on get the check's error, and the
   * loader is asked again after `errorTtlMs` (or `errorRetryMs`).
   */
  plausible?: PlausibilityCheck<V>
  /** Most keys kept; the least recently used key is evicted first. Default 1000. */
  maxEntries?: number
  /** Hears the error of a failed background refresh, which no caller is waiting for. */
  onBackgroundError?: (error: unknown, key: string) => void
  /** For {@link TimedMemo.fetch}: the longest an answer stays fresh, whatever its `Expires` says. Default: no limit. */
  maxTtlMs?: number
  /** For {@link TimedMemo.fetch}: awaited before every upstream call (a request budget shared with other sources). */
  beforeCall?: (client: UpstreamClient) => Promise<void>
  /** Clock in milliseconds; `Date.now` by default. */
  now?: () => number
}

/** What {@link TimedMemo.fetch} calls and how it reads the answer. */
export interface MemoRequest<V> {
  path: string
  query?: QueryValues
  /** Error statuses that `parse` answers itself (a 404 that means "nothing here"); their body may be undefined. */
  acceptStatus?: number[]
  /** Checks and maps a JSON body (2xx or accepted); throws an `UpstreamError` when its shape is wrong. */
  parse(body: unknown, status: number): V
}

/** A value from the memo, and what it took to get it. */
export interface MemoAnswer<V> {
  value: V
  /** Status of the upstream call made for this answer (200, 203, 304); absent when it came from memory. */
  status?: number
  /** True when a new load failed and an expired value stood in (`staleOnErrorMs`). */
  stale?: boolean
}

/** A per-key memo of an async loader. See {@link createTimedMemo}. */
export interface TimedMemo<V> {
  /** The value for `key`: memoized, shared with concurrent callers, or loaded with `load`. */
  get(key: string, load: () => Promise<V>): Promise<V>
  /**
   * The value for `key` from a JSON upstream, with conditional requests: an answer is fresh
   * until its `Expires` (counted from its `Date`, at most `maxTtlMs`; `ttlMs` when it has
   * none), then revalidated with `If-None-Match` / `If-Modified-Since` from its `ETag` /
   * `Last-Modified`, and a 304 keeps the value with the new lifetime.
   */
  fetch(key: string, client: UpstreamClient, request: MemoRequest<V>): Promise<MemoAnswer<V>>
  /** The value for `key` while it may still be served (fresh or stale), without loading anything. */
  peek(key: string): V | undefined
  delete(key: string): void
  clear(): void
  /** Number of keys held. */
  readonly size: number
}

/** A value held, and until when it may be served. */
interface Held<V> {
  v: V
  /** Until when it is fresh. */
  freshUntil: number
  /** Until when it may stand in for a failed load (`staleOnErrorMs` after its first expiry). */
  errorUntil: number
}

/** What one load gives: the value, and for `fetch` its lifetime, status and validators. */
interface Loaded<V> {
  v: V
  lifetimeMs?: number
  status?: number
  validators?: Validators
  /** A 304: the value is the one held, not judged again. */
  unchanged?: boolean
}

interface Validators {
  etag?: string
  lastModified?: string
}

interface Entry<V> {
  /** Boxed so that `undefined` can be a memoized value too. */
  value?: Held<V>
  pending?: Promise<MemoAnswer<V>>
  failure?: { error: unknown; at: number }
  /** The last value that passed, kept after it expired to judge the next one by and to stand in. */
  lastGood?: Held<V>
  validators?: Validators
}

/**
 * Memoizes an async loader per key. A value stays fresh for `ttlMs`; identical concurrent
 * calls share one load (single flight); with `staleMs`, a value past its TTL is returned at
 * once while one background load refreshes it, and a failed refresh keeps the old value;
 * with `staleOnErrorMs`, an expired value stands in when a new load fails. The loader is given
 * per call, so it can use the caller's context (for example an upstream client bound to the
 * current request). `fetch` loads from a JSON upstream itself, with conditional requests, as
 * services such as MET Norway's ask.
 *
 * @example
 * const names = createTimedMemo<Map<string, string>>({ ttlMs: 86_400_000, staleMs: 7 * 86_400_000 })
 * const airports = await names.get('airports', async () => new Map([['OSL', 'Oslo lufthavn']]))
 *
 * type Forecast = { updatedAt: string }
 * const forecasts = createTimedMemo<Forecast>({ ttlMs: 1_800_000, maxTtlMs: 6 * 3_600_000, maxEntries: 1000 })
 * const { value } = await forecasts.fetch('59.91,10.75', client, { path: '/compact', query: { lat, lon }, parse: (body) => body as Forecast })
 */
export function createTimedMemo<V>(options: TimedMemoOptions<V>): TimedMemo<V> {
  const ttlMs = options.ttlMs
  const staleMs = options.staleMs ?? 0
  const errorTtlMs = options.errorTtlMs ?? 0
  const staleOnErrorMs = options.staleOnErrorMs ?? 0
  const errorRetryMs = options.errorRetryMs ?? 60_000
  const maxTtlMs = options.maxTtlMs ?? Infinity
  const maxEntries = Math.max(1, options.maxEntries ?? 1000)
  // Read Date.now at call time so that test clocks installed later are honoured.
  const now = options.now ?? (() => Date.now())
  // Least recently used out first: reading a key (get) makes it the most recent.
  const entries = createLruMap<string, Entry<V>>(maxEntries)

  function reportBackground(error: unknown, key: string): void {
    try {
      options.onBackgroundError?.(error, key)
    } catch {
      // A throwing listener must not turn into an unhandled rejection either.
    }
  }

  const plausible = options.plausible

  function startLoad(
    key: string,
    entry: Entry<V>,
    load: (entry: Entry<V>) => Promise<Loaded<V>>,
    background: boolean,
  ): Promise<MemoAnswer<V>> {
    const previous = entry.value ?? entry.lastGood
    let loading: Promise<Loaded<V>>
    try {
      loading = Promise.resolve(load(entry))
    } catch (error) {
      loading = Promise.reject(error)
    }
    const promise = loading
      .then((loaded) => {
        if (plausible && !loaded.unchanged) {
          const problem = plausible(loaded.v, previous?.v)
          if (problem) throw problem
        }
        const at = now()
        const freshUntil = at + (loaded.lifetimeMs ?? ttlMs)
        if (entry.pending === promise) entry.pending = undefined
        entry.value = { v: loaded.v, freshUntil, errorUntil: freshUntil + staleOnErrorMs }
        if (loaded.validators) entry.validators = loaded.validators
        entry.failure = undefined
        entry.lastGood = undefined
        return loaded.status === undefined ? { value: loaded.v } : { value: loaded.v, status: loaded.status }
      })
      .catch((error: unknown) => {
        if (entry.pending === promise) entry.pending = undefined
        const at = now()
        entry.failure = { error, at }
        if (background) {
          reportBackground(error, key)
          throw error
        }
        const fallback = entry.value ?? entry.lastGood
        if (staleOnErrorMs > 0 && error instanceof UpstreamError && fallback && at < fallback.errorUntil) {
          // Stand in, without asking again at every call for a while.
          entry.value = { ...fallback, freshUntil: Math.min(at + errorRetryMs, fallback.errorUntil) }
          return { value: fallback.v, stale: true }
        }
        if (!entry.value && !entry.lastGood && errorTtlMs <= 0 && entries.peek(key) === entry) entries.delete(key)
        throw error
      })
    entry.pending = promise
    // Marks the promise as handled, so a background refresh that nobody awaits can fail
    // without an unhandled rejection.
    promise.catch(() => undefined)
    return promise
  }

  function answer(key: string, load: (entry: Entry<V>) => Promise<Loaded<V>>): Promise<MemoAnswer<V>> {
    const t = now()
    let entry = entries.get(key)
    if (!entry) {
      entry = {}
      entries.set(key, entry)
      return startLoad(key, entry, load, false)
    }
    const value = entry.value
    if (value && t < value.freshUntil) return Promise.resolve({ value: value.v })
    const recentFailure = entry.failure !== undefined && t - entry.failure.at < errorTtlMs
    if (value && t < value.freshUntil + staleMs) {
      if (!entry.pending && !recentFailure) void startLoad(key, entry, load, true).catch(() => undefined)
      return Promise.resolve({ value: value.v })
    }
    if (entry.pending) return entry.pending
    // Too old to serve: drop it so that peek() does not hand out expired data either. It is
    // still the yardstick a new value is judged by, and may stand in if the new load fails.
    entry.value = undefined
    if (value) entry.lastGood = value
    if (recentFailure && entry.failure) return Promise.reject(entry.failure.error)
    return startLoad(key, entry, load, false)
  }

  /** The freshness lifetime of an answer: `Expires − Date` as both come from the upstream (RFC 9111), so a skewed local clock does not shorten it. */
  function lifetime(headers: Record<string, string>, receivedAt: number): number {
    const expires = headers.expires !== undefined ? Date.parse(headers.expires) : Number.NaN
    if (!Number.isFinite(expires)) return Math.min(ttlMs, maxTtlMs)
    const date = headers.date !== undefined ? Date.parse(headers.date) : Number.NaN
    return Math.min(Math.max(expires - (Number.isFinite(date) ? date : receivedAt), 0), maxTtlMs)
  }

  return {
    async get(key, load) {
      return (await answer(key, async () => ({ v: await load() }))).value
    },
    fetch(key, client, request) {
      return answer(key, async (entry) => {
        await options.beforeCall?.(client)
        const held = entry.value ?? entry.lastGood
        const validators = held ? entry.validators : undefined
        const headers: Record<string, string> = {}
        if (validators?.etag !== undefined) headers['if-none-match'] = validators.etag
        if (validators?.lastModified !== undefined) headers['if-modified-since'] = validators.lastModified
        const conditional = Object.keys(headers).length > 0
        const acceptStatus = [...(request.acceptStatus ?? []), ...(conditional ? [304] : [])]
        const response = await client.getJson(request.path, {
          ...(request.query ? { query: request.query } : {}),
          ...(conditional ? { headers } : {}),
          ...(acceptStatus.length > 0 ? { acceptStatus } : {}),
        })
        const lifetimeMs = lifetime(response.headers, now())
        if (response.status === 304 && held) return { v: held.v, lifetimeMs, status: 304, unchanged: true }
        const v = request.parse(response.body, response.status)
        return {
          v,
          lifetimeMs,
          status: response.status,
          validators: { etag: response.headers.etag, lastModified: response.headers['last-modified'] },
        }
      })
    },
    peek(key) {
      const value = entries.peek(key)?.value
      if (!value || now() >= value.freshUntil + staleMs) return undefined
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
