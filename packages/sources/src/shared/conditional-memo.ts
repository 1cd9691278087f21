import { UpstreamError, type PlausibilityCheck, type QueryValues, type UpstreamClient } from '@allmenning/core/source'
import type { RequestBudget } from './request-budget.js'

/** Settings of a {@link createConditionalMemo} memo. */
export interface ConditionalMemoOptions<T = unknown> {
  /** Most keys kept; the least recently used is dropped first. */
  maxEntries: number
  /** How long an answer without a usable `Expires` header stays fresh, in milliseconds. */
  defaultTtlMs: number
  /** The longest an answer stays fresh, whatever its `Expires` says. */
  maxTtlMs: number
  /**
   * How long past its expiry the last value may still be handed out when revalidating it
   * fails; 0 (the default) lets the failure through. Meant for reference lists that change
   * rarely; an answer is better served stale by the gateway's own cache, which says so.
   */
  staleOnErrorMs?: number
  /** After such a failure, how long the stale value is served before the upstream is asked again. */
  errorRetryMs?: number
  /**
   * Judges each new value against the last good one before it is kept. An implausible value
   * (an empty station list) is handled as a failed revalidation: it is never remembered nor
   * its `Last-Modified`, the last good value is served within `staleOnErrorMs` and asked for
   * again after `errorRetryMs`, and a caller with nothing to fall back on gets the check's error.
   */
  plausible?: PlausibilityCheck<T>
  /** Every call to the upstream first takes its turn here. */
  budget: RequestBudget
  /** Clock in milliseconds; `Date.now` by default. */
  now?: () => number
}

/** What to call and how to read its answer. */
export interface ConditionalRequest<T> {
  path: string
  query?: QueryValues
  /** Error statuses that `parse` answers itself (a 404 that means "nothing here"); their body may be undefined. */
  acceptStatus?: number[]
  /** Checks and maps a JSON body (2xx or accepted); throws an `UpstreamError` when its shape is wrong. */
  parse(body: unknown, status: number): T
}

/** A value from the memo, and what it took to get it. */
export interface MemoAnswer<T> {
  value: T
  /** Status of the upstream call made for this answer (200, 203, 304); absent when it came from memory. */
  status?: number
  /** True when revalidation failed and an expired value was handed out instead. */
  stale?: boolean
}

/** A per-key memo of upstream answers that honours `Expires` and revalidates with `If-Modified-Since`. */
export interface ConditionalMemo<T> {
  get(key: string, client: UpstreamClient, request: ConditionalRequest<T>): Promise<MemoAnswer<T>>
  readonly size: number
  clear(): void
}

interface Entry<T> {
  value?: T
  /** Until when `value` may be used without asking the upstream. */
  freshUntil: number
  /** Until when `value` may stand in for an answer that failed (`staleOnErrorMs` after it expired). */
  staleUntil: number
  lastModified?: string
  pending?: Promise<MemoAnswer<T>>
}

/**
 * Memoizes upstream answers the way MET Norway's terms ask: an answer is not requested again
 * before its `Expires`; after that it is revalidated with `If-Modified-Since: <Last-Modified>`,
 * and a 304 keeps the value with the new expiry. The freshness lifetime is `Expires − Date`
 * as both come from the upstream (RFC 9111), so a skewed local clock does not shorten it.
 * Identical concurrent calls share one upstream call, and every call takes its turn in the
 * shared request budget.
 *
 * @example
 * const forecasts = createConditionalMemo<{ properties: { timeseries: unknown[] } }>({ maxEntries: 2000, defaultTtlMs: 600_000, maxTtlMs: 6 * 3_600_000, budget: metRequestBudget })
 * const { value } = await forecasts.get('59.914,10.752', client, { path: '/compact', query: { lat, lon }, parse: toForecast })
 */
export function createConditionalMemo<T>(options: ConditionalMemoOptions<T>): ConditionalMemo<T> {
  const now = options.now ?? (() => Date.now())
  const staleOnErrorMs = options.staleOnErrorMs ?? 0
  const errorRetryMs = options.errorRetryMs ?? 60_000
  const entries = new Map<string, Entry<T>>()

  function lifetime(headers: Record<string, string>, receivedAt: number): number {
    const expires = headers.expires !== undefined ? Date.parse(headers.expires) : Number.NaN
    if (!Number.isFinite(expires)) return options.defaultTtlMs
    const date = headers.date !== undefined ? Date.parse(headers.date) : Number.NaN
    const ttl = expires - (Number.isFinite(date) ? date : receivedAt)
    return Math.min(Math.max(ttl, 0), options.maxTtlMs)
  }

  async function revalidate(key: string, entry: Entry<T>, client: UpstreamClient, request: ConditionalRequest<T>): Promise<MemoAnswer<T>> {
    try {
      await options.budget.take(client)
      const conditional = entry.value !== undefined && entry.lastModified !== undefined
      const acceptStatus = [...(request.acceptStatus ?? []), ...(conditional ? [304] : [])]
      const response = await client.getJson(request.path, {
        ...(request.query ? { query: request.query } : {}),
        ...(conditional ? { headers: { 'if-modified-since': entry.lastModified! } } : {}),
        ...(acceptStatus.length > 0 ? { acceptStatus } : {}),
      })
      const receivedAt = now()
      if (response.status === 304 && entry.value !== undefined) {
        entry.freshUntil = receivedAt + lifetime(response.headers, receivedAt)
        entry.staleUntil = entry.freshUntil + staleOnErrorMs
        return { value: entry.value, status: 304 }
      }
      const value = request.parse(response.body, response.status)
      const problem = options.plausible?.(value, entry.value)
      if (problem) throw problem
      entry.value = value
      entry.freshUntil = receivedAt + lifetime(response.headers, receivedAt)
      entry.staleUntil = entry.freshUntil + staleOnErrorMs
      entry.lastModified = response.headers['last-modified']
      return { value, status: response.status }
    } catch (error) {
      const t = now()
      if (error instanceof UpstreamError && entry.value !== undefined && t < entry.staleUntil) {
        // Keep serving the old value for a while without asking again at every call.
        entry.freshUntil = Math.min(t + errorRetryMs, entry.staleUntil)
        return { value: entry.value, stale: true }
      }
      if (entry.value === undefined && entries.get(key) === entry) entries.delete(key)
      throw error
    }
  }

  return {
    get(key, client, request) {
      let entry = entries.get(key)
      if (entry) {
        // Re-insert, so that the map's order is least recently used first.
        entries.delete(key)
        entries.set(key, entry)
        if (entry.value !== undefined && now() < entry.freshUntil) return Promise.resolve({ value: entry.value })
        if (entry.pending) return entry.pending
      } else {
        entry = { freshUntil: 0, staleUntil: 0 }
        entries.set(key, entry)
        while (entries.size > options.maxEntries) entries.delete(entries.keys().next().value!)
      }
      const current = entry
      const pending = revalidate(key, current, client, request)
      current.pending = pending
      // Handled on both paths, so a failure nobody else awaits is not an unhandled rejection.
      pending.then(
        () => void (current.pending = undefined),
        () => void (current.pending = undefined),
      )
      return pending
    },
    get size() {
      return entries.size
    },
    clear() {
      entries.clear()
    },
  }
}
