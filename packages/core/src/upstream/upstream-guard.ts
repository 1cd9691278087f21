import type { IPolicy } from 'cockatiel'
import { UpstreamError } from '../http/upstream-error.js'

/** How one upstream is protected; the gateway's `upstream` options fill it. */
export interface UpstreamGuardOptions {
  /** Most calls in flight at once. */
  maxConcurrent: number
  /** Most calls waiting for a free slot; more are refused at once. */
  maxQueued: number
  /** Failures in a row that open the breaker; 0 for no breaker. */
  breakAfter: number
  /** How long an open breaker rests the upstream before one probe call, in milliseconds. */
  restMs: number
  /** Whether a call that failed to connect is tried once more, after a short random pause. */
  retryConnect: boolean
  /** The longest pause an upstream's Retry-After is honoured for, in milliseconds. */
  maxRetryAfterMs: number
  /** Hears the breaker open, half-open for a probe, and close again. */
  onBreakerChange?: (state: 'open' | 'half-open' | 'closed') => void
}

type Cockatiel = typeof import('cockatiel')

/**
 * The protection of one upstream, shared by every request of a gateway: a bulkhead (at most
 * `maxConcurrent` calls at once), a circuit breaker (after `breakAfter` failures in a row the
 * upstream is left alone for `restMs`, then probed with one call), the upstream's own
 * Retry-After honoured, and one retry with jitter for a call that could not connect.
 * Built on cockatiel's policies, which are loaded and made on the first call: a process that
 * answers only from its cache, its datasets or discovery never loads them.
 *
 * @example
 * const guard = createUpstreamGuard({ id: 'brreg', name: 'Brønnøysund' }, { maxConcurrent: 16, maxQueued: 64, breakAfter: 5, restMs: 30_000, retryConnect: true, maxRetryAfterMs: 600_000 })
 * const answer = await guard.run((signal) => fetch('https://data.brreg.no/enhetsregisteret/api/enheter', { signal }), deadline.signal)
 */
export interface UpstreamGuard {
  /** Runs one call through the protection; `signal` aborts a call still waiting for a slot. */
  run<T>(call: (signal: AbortSignal) => Promise<T>, signal: AbortSignal): Promise<T>
}

/** Failures that say the upstream is in trouble, as opposed to one odd answer. */
function isUpstreamFault(error: unknown): boolean {
  if (!(error instanceof UpstreamError)) return false
  if (error.failure === 'unavailable' || error.failure === 'timeout') return true
  return error.failure === 'status' && (error.upstreamStatus === 429 || (error.upstreamStatus ?? 0) >= 500)
}

export function createUpstreamGuard(
  upstream: { id: string; name: string },
  options: UpstreamGuardOptions,
): UpstreamGuard {
  let restingUntil = 0
  let openedAt = 0
  let made: Promise<{ policy: IPolicy; cockatiel: Cockatiel }> | undefined
  const protection = () =>
    (made ??= import('cockatiel').then((cockatiel) => ({ policy: protect(cockatiel), cockatiel })))

  function protect(cockatiel: Cockatiel): IPolicy {
    const { bulkhead, circuitBreaker, CircuitState, ConsecutiveBreaker, ExponentialBackoff, handleWhen, retry, wrap } =
      cockatiel
    const breaker =
      options.breakAfter > 0
        ? circuitBreaker(handleWhen(isUpstreamFault), {
            halfOpenAfter: options.restMs,
            breaker: new ConsecutiveBreaker(options.breakAfter),
          })
        : undefined
    breaker?.onBreak(() => {
      openedAt = Date.now()
    })
    const onBreakerChange = options.onBreakerChange
    const states = {
      [CircuitState.Closed]: 'closed',
      [CircuitState.Open]: 'open',
      [CircuitState.HalfOpen]: 'half-open',
      [CircuitState.Isolated]: 'open',
    } as const
    if (onBreakerChange) breaker?.onStateChange((state) => onBreakerChange(states[state]))
    const policies: IPolicy[] = []
    if (breaker) policies.push(breaker)
    if (options.retryConnect) {
      // GETs only, and only when no answer began, so a retry can never repeat work the upstream did.
      const retryable = (error: Error) => error instanceof UpstreamError && error.detail.beforeResponse === true
      policies.push(
        retry(handleWhen(retryable), {
          maxAttempts: 1,
          backoff: new ExponentialBackoff({ initialDelay: 50, maxDelay: 250 }),
        }),
      )
    }
    policies.push(bulkhead(options.maxConcurrent, options.maxQueued))
    return wrap(...policies)
  }

  function resting(reason: string, untilMs: number): UpstreamError {
    const seconds = Math.max(1, Math.ceil((untilMs - Date.now()) / 1000))
    return new UpstreamError(upstream, 'resting', `${reason}; it is called again in ${seconds} s`, undefined, {
      retryAfterSeconds: seconds,
    })
  }

  /** Remembers an upstream's own request for a pause. */
  function heed(error: unknown): void {
    if (!(error instanceof UpstreamError) || error.detail.retryAfterMs === undefined) return
    restingUntil = Math.max(restingUntil, Date.now() + Math.min(error.detail.retryAfterMs, options.maxRetryAfterMs))
  }

  return {
    async run(call, signal) {
      if (Date.now() < restingUntil) throw resting('asked the gateway to wait (Retry-After)', restingUntil)
      const { policy, cockatiel } = await protection()
      const { BrokenCircuitError, BulkheadRejectedError, TaskCancelledError } = cockatiel
      let started = false
      const task = policy.execute(({ signal: inner }) => {
        started = true
        return call(inner)
      }, signal)
      // A call waiting for a slot still answers at its deadline, even though the bulkhead only
      // notices the abort when the call's turn comes. A call under way answers for itself.
      const aborted = new Promise<never>((_, reject) => {
        const stop = () => {
          if (!started) reject(new TaskCancelledError())
        }
        if (signal.aborted) stop()
        else signal.addEventListener('abort', stop, { once: true })
        void task.finally(() => signal.removeEventListener('abort', stop)).catch(() => undefined)
      })
      try {
        return await Promise.race([task, aborted])
      } catch (error) {
        heed(error)
        if (error instanceof BrokenCircuitError) {
          throw resting(
            `failed ${options.breakAfter} times in a row and is being given a rest`,
            openedAt + options.restMs,
          )
        }
        if (error instanceof BulkheadRejectedError) {
          throw new UpstreamError(
            upstream,
            'busy',
            `already has ${options.maxConcurrent} calls in flight and ${options.maxQueued} waiting from this gateway`,
            undefined,
            {
              retryAfterSeconds: 1,
            },
          )
        }
        if (error instanceof TaskCancelledError)
          throw new UpstreamError(
            upstream,
            'timeout',
            'was still busy with other calls when the request ran out of time',
          )
        throw error
      }
    },
  }
}
