/**
 * The time one request may spend on upstream calls, all of them together. Every upstream call
 * of the request is given what is left of it, so an operation that makes three calls in a row
 * cannot take three time limits.
 *
 * @example
 * const deadline = createDeadline(10_000)
 * const timeoutMs = Math.min(upstream.timeoutMs, deadline.remaining())
 */
export interface Deadline {
  /** The length of the whole budget, for messages. */
  readonly totalMs: number
  /** Aborts when the budget is spent. */
  readonly signal: AbortSignal
  /** Milliseconds left; 0 or less once spent. */
  remaining(): number
}

/**
 * Starts a deadline of `ms` milliseconds from now.
 *
 * @example
 * const deadline = createDeadline(10_000)
 * await fetch(url, { signal: deadline.signal })
 */
export function createDeadline(ms: number): Deadline {
  const end = performance.now() + ms
  return {
    totalMs: ms,
    signal: AbortSignal.timeout(Math.max(0, ms)),
    remaining: () => end - performance.now(),
  }
}
