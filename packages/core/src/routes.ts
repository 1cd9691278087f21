import type { ExtensionAnswer, GatewayExtension } from './extensions/gateway-extension.js'
import type { RouteDefinition } from './routing/define-route.js'
import type { GatewayContext } from './gateway-context.js'
import { describeRoutes } from './describe/describe-routes.js'
import { extensionRoutes } from './extensions/extension-routes.js'
import { feedbackRoute } from './feedback/feedback-route.js'
import { healthRoute } from './health/health-route.js'
import { operationRoutes } from './operations/operation-routes.js'
import { placeRoutes } from './places/place-routes.js'
import { searchRoute } from './search/search-route.js'

/**
 * The gateway's route table, in matching order: each feature's own route records (path,
 * answer, cache key), gathered. The router, the method check, parameter validation, the
 * OpenAPI paths, the API index and every link are derived from it; a new endpoint is one
 * record in its feature.
 */
export function createRoutes(
  ctx: GatewayContext,
  extensions: readonly GatewayExtension[],
  answerOf: (extension: GatewayExtension) => ExtensionAnswer,
): RouteDefinition[] {
  return [
    ...describeRoutes(ctx),
    searchRoute(ctx),
    ...placeRoutes(ctx),
    ...operationRoutes(ctx),
    feedbackRoute(ctx),
    healthRoute(ctx),
    ...extensionRoutes(ctx.catalog, extensions, answerOf),
  ]
}
