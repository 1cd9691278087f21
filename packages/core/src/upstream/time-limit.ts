/** A running time limit: `signal` aborts when it is up; `clear` ends it once the work is done. */
export interface TimeLimit {
  readonly signal: AbortSignal
  clear(): void
}

/**
 * Starts a time limit of `ms` milliseconds whose signal also aborts when `also` does (the
 * request's deadline). The signal aborts with a `TimeoutError`, as `AbortSignal.timeout`'s does.
 *
 * Not `AbortSignal.any([AbortSignal.timeout(ms), also])`: Node 20 holds a timeout signal only
 * weakly, and one combined by `AbortSignal.any` has no listener of its own to keep it, so a
 * garbage collection while the call waits can take it away and the call then waits for the
 * deadline alone (nodejs/node#57736). Here the timer holds the controller until it fires or is
 * cleared, and the listener on `also` is removed by `clear`, so nothing outlives the call.
 *
 * @example
 * const limit = startTimeLimit(2000, deadline.signal)
 * try {
 *   await fetch('https://driftsdata.statnett.no/restapi/PhysicalFlowMap/GetFlow', { signal: limit.signal })
 * } finally {
 *   limit.clear()
 * }
 */
export function startTimeLimit(ms: number, also?: AbortSignal): TimeLimit {
  const controller = new AbortController()
  const timer = setTimeout(
    () => controller.abort(new DOMException(`The time limit of ${ms} ms was reached`, 'TimeoutError')),
    ms,
  )
  const followAlso = () => controller.abort(also?.reason)
  if (also?.aborted) followAlso()
  else also?.addEventListener('abort', followAlso, { once: true })
  return {
    signal: controller.signal,
    clear() {
      clearTimeout(timer)
      also?.removeEventListener('abort', followAlso)
    },
  }
}
