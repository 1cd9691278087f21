import type { UpstreamDefinition } from '../plugin/define-upstream.js'
import type { Dispatcher } from 'undici'
import type { UpstreamSettings } from './upstream-client.js'
import { createUpstreamGuard, type UpstreamGuard } from './upstream-guard.js'
import type { GatewayObservers } from '../observe/gateway-observer.js'

/**
 * The gateway's defaults for every upstream call, `GatewayOptions.upstream`: declared here, in
 * the upstream layer that reads them, so the upstream client knows nothing above it.
 *
 * @example
 * const defaults: UpstreamDefaults = { timeoutMs: 5000, userAgent: 'allmenning (data@example.no)' }
 */
export interface UpstreamDefaults {
  /** Per-call time limit; 10 000 ms by default. */
  timeoutMs?: number
  /** Identifies the gateway to upstream operators; set it to name your deployment and a contact. */
  userAgent?: string
  /**
   * An undici dispatcher (a ProxyAgent, an Agent with its own pool, a MockAgent in tests):
   * every upstream call then goes through undici with it. Without one, upstream calls go
   * through Node's own HTTP client and its global agents, and undici is never loaded.
   */
  dispatcher?: Dispatcher
  /** Most calls in flight at once to one upstream, for upstreams that do not state their own; 16 by default. */
  maxConcurrent?: number
  /** Most calls to one upstream waiting for a free slot; more are answered 502 `upstream_busy` at once. 64 by default. */
  maxQueued?: number
  /**
   * Failures in a row (no answer, a timeout, a 5xx or 429) after which an upstream is left
   * alone for `restSeconds`: requests get a stale copy or a 502 `upstream_resting`, then one
   * probe call decides. 5 by default; 0 turns the breaker off.
   */
  breakAfterFailures?: number
  /** How long a failing upstream is rested before it is probed again; 30 s by default. */
  restSeconds?: number
  /** Try a call that failed to connect once more, after 50–250 ms of jitter, within the deadline; on by default. */
  retryConnect?: boolean
  /** Longest pause an upstream's own Retry-After (on a 429 or 503) is honoured for; 600 s by default. */
  maxRetryAfterSeconds?: number
  /**
   * Largest upstream body accepted, for upstreams that do not state their own; 2 MiB by
   * default. A body past it is dropped as it streams in (or before, when Content-Length says
   * so) and answered with a 502, so that one upstream cannot fill memory or stall the loop.
   */
  maxBodyBytes?: number
}

/**
 * The settings of each upstream, the gateway's `upstream` defaults merged in, made once per
 * upstream; with one guard (breaker and slots) per upstream id, shared by every request of
 * the gateway.
 *
 * @example
 * const settingsOf = createUpstreamSettings(options.upstream, 'allmenning/0.1.0')
 * settingsOf(upstream).timeoutMs // 10000 unless set
 */
export function createUpstreamSettings(
  defaults: UpstreamDefaults | undefined,
  defaultUserAgent: string,
  observer?: GatewayObservers,
  onBreakerChange?: (upstream: string, state: 'open' | 'half-open' | 'closed') => void,
): (upstream: UpstreamDefinition) => UpstreamSettings {
  const base = {
    timeoutMs: defaults?.timeoutMs ?? 10_000,
    userAgent: defaults?.userAgent ?? defaultUserAgent,
    maxBodyBytes: defaults?.maxBodyBytes ?? 2 * 1024 * 1024,
    ...(defaults?.dispatcher ? { dispatcher: defaults.dispatcher } : {}),
  }
  const settings = new WeakMap<UpstreamDefinition, UpstreamSettings>()
  const guards = new Map<string, UpstreamGuard>()
  const guardOf = (upstream: UpstreamDefinition): UpstreamGuard => {
    let guard = guards.get(upstream.id)
    if (!guard) {
      guard = createUpstreamGuard(upstream, {
        maxConcurrent: upstream.maxConcurrent ?? defaults?.maxConcurrent ?? 16,
        maxQueued: defaults?.maxQueued ?? 64,
        breakAfter: defaults?.breakAfterFailures ?? 5,
        restMs: (defaults?.restSeconds ?? 30) * 1000,
        retryConnect: defaults?.retryConnect ?? true,
        maxRetryAfterMs: (defaults?.maxRetryAfterSeconds ?? 600) * 1000,
        onBreakerChange: (state) => {
          onBreakerChange?.(upstream.id, state)
          observer?.breakerChanged({ upstream: upstream.id, state })
        },
      })
      guards.set(upstream.id, guard)
    }
    return guard
  }
  return (upstream) => {
    let known = settings.get(upstream)
    if (!known) {
      known = {
        ...base,
        id: upstream.id,
        name: upstream.name,
        baseUrl: upstream.baseUrl,
        timeoutMs: upstream.timeoutMs ?? base.timeoutMs,
        maxBodyBytes: upstream.maxBodyBytes ?? base.maxBodyBytes,
        guard: guardOf(upstream),
        ...(observer ? { observer } : {}),
      }
      settings.set(upstream, known)
    }
    return known
  }
}
