import type { UpstreamDefinition } from '../plugin/define-upstream.js'
import type { Dispatcher } from 'undici'
import type { UpstreamSettings } from './upstream-client.js'
import { createUpstreamGuard, type UpstreamGuard } from './upstream-guard.js'
import type { GatewayObservers } from '../observe/gateway-observer.js'

/**
 * The gateway's defaults for every upstream: the slice of `GatewayOptions` this module reads
 * (`createGateway` hands it `options.upstream`, and the type checker holds that it fits). Declared
 * here, not read from the whole options type, so the upstream client knows nothing above it.
 */
export interface UpstreamDefaults {
  timeoutMs?: number
  userAgent?: string
  dispatcher?: Dispatcher
  maxConcurrent?: number
  maxQueued?: number
  breakAfterFailures?: number
  restSeconds?: number
  retryConnect?: boolean
  maxRetryAfterSeconds?: number
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
