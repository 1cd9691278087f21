/**
 * `@allmenning/core`: for host apps, the code that builds a gateway and serves it. Here are
 * `createGateway` and its options, the gateway's request, response and error types every
 * audience shares, the cache store, upstream overrides, and the shapes of an answer.
 *
 * Writing something else? Sources, operations, upstreams and datasets:
 * `@allmenning/core/source`. An adapter between a web framework or runtime and the gateway,
 * or the Node HTTP server a host runs: `@allmenning/core/adapter`. An extension (MCP), an
 * explorer page or a dataset store: `@allmenning/core/extension`. Tests:
 * `@allmenning/core/testing`. Each name lives in exactly one of them.
 *
 * @example
 * import Keyv from 'keyv'
 * import { createGateway, createMemoryCacheStore } from '@allmenning/core'
 * import { builtInSources } from '@allmenning/sources'
 *
 * const gateway = createGateway({ sources: builtInSources(process.env), cache: new Keyv({ store: createMemoryCacheStore() }) })
 *
 * @module
 */
export type {
  EncodedBody,
  Gateway,
  GatewayRequest,
  GatewayResponse,
  HostRequest,
  ResponseHook,
} from './http/gateway-request.js'
export { GatewayError, type ErrorCode, type ProblemDetail } from './http/gateway-error.js'
export {
  upstreamEnvironmentVariable,
  upstreamOverridesFromEnvironment,
  type UpstreamOverride,
} from './plugin/define-upstream.js'
export { overrideUpstreams } from './plugin/override-upstreams.js'
export { createGateway, defaultUserAgent, type GatewayOptions, type ErrorKind, type LocalGateway } from './gateway.js'
export {
  createMemoryCacheStore,
  type MemoryCacheStore,
  type MemoryCacheStoreOptions,
} from './cache/memory-cache-store.js'
export {
  gatewayOptionsFromEnv,
  EnvironmentVariableError,
  type OptionsFromEnv,
  type RedisPackage,
  type TrustProxy,
} from './gateway-options-from-env.js'
export { serverSettingsFromEnv, type ServerSettings } from './server-settings-from-env.js'
export {
  connectSharedRedis,
  type ConnectableRedisClient,
  type SharedRedisClientSetup,
} from './cache/connect-shared-redis.js'
export type { Feedback } from './feedback/feedback.js'
export type { Entity, OperationEnvelope } from './pipeline/envelope.js'
export type { Pagination } from './pipeline/pagination.js'
export type { RateLimitOptions, RateLimitQuota } from './limit/rate-limit.js'
export type { SharedRedisClient } from './cache/shared-redis-client.js'
export { RedisNotConnectedError } from './cache/redis-outage.js'
export type { SharedFlightOptions } from './cache/shared-flight.js'
