import type { Catalog } from './compile/catalog.js'
import type { RouteDefinition } from './routing/define-route.js'
import type { Links } from './http/links.js'
import type { GatewayOptions, ResolvedOptions } from './gateway-options.js'
import type { InvokeOperation } from './operations/invoke-operation.js'
import type { OperationCallDeps } from './pipeline/operation-call.js'
import type { SourceHealthRecorder } from './observe/source-health.js'

/**
 * What a feature's routes are made from, built once by `createGateway`: each feature (its
 * operations, search, places, descriptions, feedback, extensions) takes what it needs from it
 * and answers its own routes, so no answer is a closure inside the gateway.
 */
export interface GatewayContext {
  catalog: Catalog
  /** The gateway's options as given, and the shared ones with their defaults. */
  options: GatewayOptions
  resolved: ResolvedOptions
  /** The cached-answer pipeline: store, hot cache, single and shared flight, stale answers. */
  pipeline: OperationCallDeps
  /** What the gateway has seen of each source's health. */
  health: SourceHealthRecorder
  /** Calls an operation in process through that pipeline (see `Gateway.invoke`). */
  invoke: InvokeOperation
  /** The `wiki` link of the gateway as a whole: the documentation URL, the explorer or the OpenAPI document. */
  documentation(links: Links): string
  /** The whole route table, for the answers that describe it (API index, OpenAPI). */
  routes(): readonly RouteDefinition[]
}
