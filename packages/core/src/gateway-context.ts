import type { DescribeContext } from './describe/describe-routes.js'
import type { ExtensionContext } from './extensions/extension-routes.js'
import type { FeedbackContext } from './feedback/feedback-route.js'
import type { GatewayOptions, ResolvedOptions } from './gateway-options.js'
import type { HealthContext } from './health/health-route.js'
import type { OperationRoutesContext } from './operations/operation-routes.js'
import type { PlaceRoutesContext } from './places/place-routes.js'
import type { SearchContext } from './search/search-route.js'

/**
 * What the features' routes are made from, built once by `createGateway`: each feature (its
 * operations, search, places, descriptions, feedback, health, extensions) declares the slice it
 * needs in its own folder, and this is all of them at once, so no answer is a closure inside
 * the gateway. It sits above the features: they never import it, so they make no circle
 * through it.
 */
export interface GatewayContext
  extends DescribeContext,
    OperationRoutesContext,
    SearchContext,
    FeedbackContext,
    HealthContext,
    PlaceRoutesContext,
    ExtensionContext {
  /** The gateway's options as given: every feature's slice of them. */
  options: GatewayOptions
  /** The shared options with their defaults: every feature's slice of them. */
  resolved: ResolvedOptions
}
