/**
 * `@allmenning/core/extension`: for authors of what plugs into a gateway besides sources: an
 * extension that serves the sources in another protocol (as `@allmenning/mcp` does), an
 * explorer page (as `@allmenning/explorer`), a dataset store (as `@allmenning/datasets`), an
 * observer for metrics, traces or logs (as `@allmenning/observability`).
 * Here are the contracts they implement and what the gateway hands them: its sources and
 * operations, its links, JSON Schemas. Reading raw request bodies is in
 * `@allmenning/core/adapter`; the request, response and error types in `@allmenning/core`.
 *
 * @example
 * import type { GatewayExtension, ExtensionCall, ExtensionHost } from '@allmenning/core/extension'
 * import type { GatewayResponse } from '@allmenning/core'
 *
 * declare function answerInMyProtocol(host: ExtensionHost, call: ExtensionCall): Promise<GatewayResponse>
 *
 * export function myProtocol(): GatewayExtension {
 *   return {
 *     name: 'myprotocol',
 *     summary: { gateway: 'Every source in my protocol', source: 'One source in my protocol' },
 *     attach: (host) => async (call) => answerInMyProtocol(host, call),
 *   }
 * }
 *
 * @module
 */
export type {
  GatewayExtension,
  ExtensionAnswer,
  ExtensionCall,
  ExtensionHost,
  ExtensionOperation,
  ExtensionParameter,
  ExtensionRoute,
  ExtensionSource,
  InvokedAnswer,
} from './extensions/gateway-extension.js'
export type { Links } from './http/links.js'
export type { JsonSchema } from './compile/json-schema.js'
export type { Explorer, ExplorerAsset, ExplorerPageContext } from './describe/explorer.js'
export type { DatasetStore } from './plugin/dataset-store.js'
export { createLruMap, type LruMap } from './util/lru-map.js'
export type {
  CacheOutcome,
  GatewayObserver,
  ObservedCacheLookup,
  ObservedGateway,
  ObservedRequest,
  ObservedUpstreamCall,
} from './observe/gateway-observer.js'
