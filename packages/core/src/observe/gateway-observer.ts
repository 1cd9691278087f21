import type { DatasetVersion } from '../plugin/dataset-store.js'
import type { GatewayRequest } from '../http/gateway-request.js'
import type { UpstreamFailure } from '../http/upstream-error.js'
import type { SourceHealth } from './source-health.js'

/**
 * How an operation's answer was found: fresh in a cache (`hit`), made by an upstream call
 * (`miss`, also when an expired copy was there), or an expired copy served because the
 * upstream failed (`stale`).
 */
export type CacheOutcome = 'hit' | 'miss' | 'stale'

/**
 * One request as observers see it: made when it arrives, filled in as it is answered, and the
 * same object in every event of the request, so an observer can keep what it needs beside it
 * (a span, in a `WeakMap`). Read it; the gateway writes it.
 */
export interface ObservedRequest {
  readonly request: GatewayRequest
  /** In upper case. */
  readonly method: string
  /** `performance.now()` when the request arrived. */
  readonly startedAt: number
  /** The route's template below the mount point, `/api/v1/kilder/{source}/{operation}`; none for a path no route has. */
  route?: string
  /** The source and operation an operation call answered from; none on other routes. */
  source?: string
  operation?: string
  /** How the operation's answer was found. */
  cache?: CacheOutcome
  /** Whether the answer came from an identical call another request had in flight (single flight). */
  joined?: boolean
  /** Set when the request is answered. */
  status?: number
  durationMs?: number
}

/** One call to an upstream service, the same object when it starts and when it ends. */
export interface ObservedUpstreamCall {
  /** The upstream's id (`brreg`) and name. */
  readonly upstream: string
  readonly name: string
  readonly method: 'GET' | 'POST'
  /** The URL called, secrets shown as `***`. */
  readonly url: string
  /** The operation that made the call. */
  readonly source: string
  readonly operation: string
  /** The request the call was made for; none for a call made in process (`gateway.invoke`, a search's fan-out). */
  readonly request: ObservedRequest | undefined
  /** `performance.now()` when the call started. */
  readonly startedAt: number
  /** Set when it ends: `ok`, `timeout`, or `error` with the failure. */
  outcome?: 'ok' | 'error' | 'timeout'
  failure?: UpstreamFailure
  /** The upstream's HTTP status, when it answered one. */
  status?: number
  durationMs?: number
}

/** One lookup of an operation's answer, over HTTP or in process. */
export interface ObservedCacheLookup {
  readonly source: string
  readonly operation: string
  readonly outcome: CacheOutcome
  /** Whether it joined an identical call in flight instead of making its own. */
  readonly joined: boolean
}

/** What an observer may read of the gateway whenever it likes, such as when it is scraped. */
export interface ObservedGateway {
  /** Every dataset the gateway's operations read, with the version the store has loaded now (none when not loaded). */
  datasets(): Array<{ id: string; version: DatasetVersion | undefined }>
  /** Every source's health as `/api/v1/health` reports it now (no upstream is called). */
  health(): SourceHealth[]
}

/**
 * Hears what a gateway does, for metrics, traces and logs: `createGateway({ observers })`. Every
 * method is optional; events an observer has no method for cost it nothing, and a gateway with
 * no observers builds no event at all. A method that throws is reported to `onError` as
 * `internal`, never to the request. `@allmenning/observability` has Prometheus metrics,
 * OpenTelemetry spans and a JSON request log built on it.
 *
 * @example
 * const slow: GatewayObserver = {
 *   requestFinished: (r) => {
 *     if ((r.durationMs ?? 0) > 1000) console.warn(`slow: ${r.method} ${r.route} ${r.status} ${r.durationMs} ms`)
 *   },
 * }
 */
export interface GatewayObserver {
  /** Once, when the gateway is made. */
  attached?(gateway: ObservedGateway): void
  requestStarted?(request: ObservedRequest): void
  requestFinished?(request: ObservedRequest): void
  upstreamCallStarted?(call: ObservedUpstreamCall): void
  upstreamCallFinished?(call: ObservedUpstreamCall): void
  cacheLookup?(lookup: ObservedCacheLookup): void
  /** An upstream's circuit breaker opened (it is rested), half-opened (one probe call) or closed again. */
  breakerChanged?(event: { upstream: string; state: 'open' | 'half-open' | 'closed' }): void
  /** A request was refused with a 429 by the quota named. */
  rateLimited?(event: { quota: 'default' | 'expensive'; request: GatewayRequest }): void
  /**
   * Whether it records requests now, asked as each request arrives; leave it out to hear every
   * request. An observer that records only while something outside it is set up (a tracing
   * SDK) answers false without it: a request that no observer of requests records is neither
   * timed nor described, and gets no `requestStarted` or `requestFinished`. It runs on every
   * request, so it answers from what it knows, asking nothing costly.
   */
  observing?(): boolean
}

/** Every observer method, each present: what the gateway calls once it has observers. */
export type GatewayObservers = Required<GatewayObserver>

const methods = [
  'attached',
  'requestStarted',
  'requestFinished',
  'upstreamCallStarted',
  'upstreamCallFinished',
  'cacheLookup',
  'breakerChanged',
  'rateLimited',
] as const satisfies ReadonlyArray<keyof GatewayObserver>

/**
 * The observers as one, each event passed to every observer that hears it, a throw reported
 * rather than passed on; `undefined` when there are none, so the gateway's parts check one
 * value and build no event.
 *
 * @example
 * const observe = combineObservers([{ rateLimited: ({ quota }) => console.warn(`429: ${quota}`) }], (error) => console.error(error))
 * observe?.breakerChanged({ upstream: 'brreg', state: 'open' })
 */
export function combineObservers(
  observers: readonly GatewayObserver[] | undefined,
  onError: (error: unknown) => void,
): GatewayObservers | undefined {
  if (!observers || observers.length === 0) return undefined
  const combined = {} as Record<(typeof methods)[number], (event: never) => void> & { observing(): boolean }
  for (const method of methods) combined[method] = everyListenerOf(observers, method, onError)
  combined.observing = observingOf(observers, onError)
  return combined as unknown as GatewayObservers
}

/**
 * One event passed to each observer that hears it. Each listener is bound once, here: a
 * function shared by every event that looked the method up by name on each call would make
 * that lookup and call megamorphic, on every request.
 */
function everyListenerOf(
  observers: readonly GatewayObserver[],
  method: (typeof methods)[number],
  onError: (error: unknown) => void,
): (event: never) => void {
  const listeners = observers.flatMap((o) => {
    const listener = o[method] as ((event: never) => void) | undefined
    return typeof listener === 'function' ? [listener.bind(o)] : []
  })
  // An event nobody hears costs a call that returns.
  if (listeners.length === 0) return () => {}
  return (event) => {
    for (const listener of listeners) {
      try {
        listener(event)
      } catch (error) {
        onError(error)
      }
    }
  }
}

/**
 * Whether a request is recorded: never when no observer hears requests, always when one of
 * those that do cannot say (it has no `observing`), else when one of them is observing now.
 * An `observing` that throws is reported, and counts as observing.
 */
function observingOf(observers: readonly GatewayObserver[], onError: (error: unknown) => void): () => boolean {
  const ofRequests = observers.filter(
    (o) => typeof o.requestStarted === 'function' || typeof o.requestFinished === 'function',
  )
  if (ofRequests.length === 0) return () => false
  if (ofRequests.some((o) => typeof o.observing !== 'function')) return () => true
  return () => {
    for (const observer of ofRequests) {
      try {
        if (observer.observing!()) return true
      } catch (error) {
        onError(error)
        return true
      }
    }
    return false
  }
}
