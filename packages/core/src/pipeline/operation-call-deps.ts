import Keyv from 'keyv'
import { createBestEffortCache } from '../cache/best-effort-cache.js'
import type { CachedResponse } from '../cache/cached-response.js'
import { createHotCache } from '../cache/hot-cache.js'
import { createMemoryCacheStore } from '../cache/memory-cache-store.js'
import type { RedisOutage } from '../cache/redis-outage.js'
import { createSharedFlight } from '../cache/shared-flight.js'
import type { SharedRedisClient } from '../cache/shared-redis-client.js'
import { createSingleFlight } from '../cache/single-flight.js'
import type { SharedFlightOptions } from '../cache/shared-flight.js'
import type { DatasetStore } from '../plugin/dataset-store.js'
import type { UpstreamSettings } from '../upstream/upstream-client.js'
import type { UpstreamDefinition } from '../plugin/define-upstream.js'
import type { OperationCallDeps } from './operation-call.js'
import { createUpstreamAnswerMemo } from '../upstream/upstream-answer-memo.js'
import type { GatewayObservers } from '../observe/gateway-observer.js'

/**
 * The slice of `GatewayOptions` the pipeline reads (see each there): declared here so the
 * pipeline knows nothing of the gateway above it; `createGateway` hands it the whole options,
 * and the type checker holds that they fit.
 */
export interface OperationCallOptions {
  cache?: Keyv
  cacheTimeoutMs?: number
  cacheEntryMaxBytes?: number
  hotCacheEntries?: number
  hotCacheBytes?: number
  sharedFlight?: SharedFlightOptions
  staleSeconds?: number
  deadlineMs?: number
  notFoundCacheSeconds?: number
  datasets?: DatasetStore
  upstreamAnswerBytes?: number
}

/**
 * The cached-answer pipeline of a gateway, from its options: the store behind its timeouts,
 * the hot cache, the single flights, and the times answers are kept and waited for.
 */
export function createOperationCallDeps(
  options: OperationCallOptions,
  parts: {
    onError(error: unknown, kind: 'cache' | 'shared-state'): void
    outageOf(redis: SharedRedisClient): RedisOutage
    upstreamSettings(upstream: UpstreamDefinition): UpstreamSettings
    observer: GatewayObservers | undefined
    health: OperationCallDeps['health']
  },
): OperationCallDeps {
  const upstreamAnswerBytes = options.upstreamAnswerBytes ?? 16 * 1024 * 1024
  return {
    cache: createBestEffortCache(options.cache ?? new Keyv({ store: createMemoryCacheStore() }), {
      timeoutMs: options.cacheTimeoutMs ?? 200,
      maxEntryBytes: options.cacheEntryMaxBytes ?? 8 * 1024 * 1024,
      onError: (error) => parts.onError(error, 'cache'),
    }),
    hot: createHotCache(options.hotCacheEntries ?? 1000, options.hotCacheBytes ?? 32 * 1024 * 1024),
    flights: createSingleFlight<{ entry: CachedResponse; collapsed: boolean }>(),
    ...(options.sharedFlight
      ? {
          sharedFlight: createSharedFlight(
            options.sharedFlight,
            (error) => parts.onError(error, 'shared-state'),
            parts.outageOf(options.sharedFlight.redis),
          ),
        }
      : {}),
    staleSeconds: options.staleSeconds ?? 86_400,
    deadlineMs: options.deadlineMs ?? 10_000,
    notFoundSeconds: options.notFoundCacheSeconds ?? 60,
    ...(upstreamAnswerBytes > 0 ? { upstreamAnswers: createUpstreamAnswerMemo(upstreamAnswerBytes) } : {}),
    ...(options.datasets ? { datasets: options.datasets } : {}),
    upstreamSettings: parts.upstreamSettings,
    ...(parts.observer ? { observer: parts.observer } : {}),
    ...(parts.health ? { health: parts.health } : {}),
  }
}
