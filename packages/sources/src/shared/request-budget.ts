import { UpstreamError } from '@allmenning/core/source'

/** Settings of a {@link createRequestBudget} budget. */
export interface RequestBudgetOptions {
  /** Most requests in any window of `perMs`. */
  requests: number
  /** Length of the sliding window in milliseconds. */
  perMs: number
  /**
   * Longest a call waits for its turn. A call that would have to wait longer is refused at
   * once (a 502 naming the upstream, so a stale cached answer can stand in) instead of
   * piling up behind a burst.
   */
  maxWaitMs: number
  /** Clock in milliseconds; `Date.now` by default. */
  now?: () => number
  /** Waits the given milliseconds; a timer by default. */
  sleep?: (ms: number) => Promise<void>
}

/** A cap on the request rate to one upstream service, shared by everything that calls it. */
export interface RequestBudget {
  /** Waits until a request to `upstream` fits the budget, or rejects with a 502 naming it. */
  take(upstream: { id: string; name: string }): Promise<void>
  /** Requests sent or scheduled within the current window (for tests and metrics). */
  readonly inWindow: number
}

/**
 * A sliding-window rate limit: at most `requests` calls start in any `perMs` window. Each call
 * is given the earliest start time that keeps the window within budget and waits for it, so a
 * burst is spread out rather than refused, up to `maxWaitMs`.
 *
 * @example
 * const budget = createRequestBudget({ requests: 20, perMs: 1000, maxWaitMs: 2000 })
 * await budget.take(client) // then call the upstream
 */
export function createRequestBudget(options: RequestBudgetOptions): RequestBudget {
  const { requests, perMs, maxWaitMs } = options
  const now = options.now ?? (() => Date.now())
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  // Start times of calls, ascending; those older than one window no longer count.
  const starts: number[] = []

  function prune(t: number): void {
    let drop = 0
    while (drop < starts.length && starts[drop]! <= t - perMs) drop++
    if (drop > 0) starts.splice(0, drop)
  }

  return {
    async take(upstream) {
      const t = now()
      prune(t)
      // With a full window, the new call may start one window after the call `requests`
      // places before it. With room in the window it starts now, possibly before calls that
      // are already scheduled, so it is inserted in order.
      const at = starts.length < requests ? t : Math.max(t, starts[starts.length - requests]! + perMs)
      const wait = at - t
      if (wait > maxWaitMs) {
        // The earliest a call made again would be let through, sent as Retry-After.
        const retryAfterSeconds = Math.max(1, Math.ceil((wait - maxWaitMs) / 1000))
        throw new UpstreamError(
          upstream,
          'unavailable',
          `was not called: the gateway keeps to ${requests} requests per ${perMs / 1000} s there, as its terms ask, and that budget is spent; try again in ${retryAfterSeconds} s`,
          undefined,
          { retryAfterSeconds },
        )
      }
      let index = starts.length
      while (index > 0 && starts[index - 1]! > at) index--
      starts.splice(index, 0, at)
      if (wait > 0) await sleep(wait)
    },
    get inWindow() {
      prune(now())
      return starts.length
    },
  }
}

/**
 * The budget every built-in MET Norway source shares in one process: MET's terms allow an
 * application at most 20 requests per second in total, across all its products.
 */
export const metRequestBudget: RequestBudget = createRequestBudget({ requests: 20, perMs: 1000, maxWaitMs: 2000 })
