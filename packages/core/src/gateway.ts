// Only `version` is imported, so bundlers leave the rest of package.json out.
import { version as packageVersion } from '../package.json'
import { createCatalog } from './compile/catalog.js'
import { outagePerRedisClient } from './cache/outage-per-redis-client.js'
import { documentationLink } from './describe/describe-routes.js'
import { createAttachedExtensions } from './extensions/extension-routes.js'
import type { Gateway } from './http/gateway-request.js'
import { createLinkFactory, type Links } from './http/links.js'
import { createRequestHandler } from './server/request-handler.js'
import { createRouter } from './routing/router.js'
import { createRateLimiter } from './limit/rate-limit.js'
import { createOperationInvoker } from './operations/invoke-operation.js'
import type { OperationEnvelope } from './pipeline/envelope.js'
import { createOperationCallDeps } from './pipeline/operation-call-deps.js'
import { createRoutes } from './routes.js'
import { createUpstreamSettings } from './upstream/upstream-settings.js'
import { combineObservers } from './observe/gateway-observer.js'
import { datasetsOf } from './dataset/dataset-generations.js'
import { resolveOptions, type GatewayOptions } from './gateway-options.js'
import { createSourceHealth } from './observe/source-health.js'
import type { GatewayContext } from './gateway-context.js'

export type { ErrorKind, GatewayOptions } from './gateway-options.js'

export const defaultUserAgent = `allmenning/${packageVersion}`

/** A gateway made by {@link createGateway}: what adapters need, and calls of its operations from inside the process. */
export interface LocalGateway extends Required<Gateway> {
  /**
   * Calls an operation in process and gives its envelope as a value: the same validation as
   * its GET (from the values: `"5"` and `5` alike), the same cache key, cache and single flight,
   * so a call and a GET of the same thing share one upstream call and one cached answer; but
   * no query string, no JSON written or parsed. Rejects with the error the GET would answer
   * with: a `GatewayError` (400 naming the parameter, 404 for an unknown source or entity,
   * a remembered 404 too) or an `UpstreamError` (502 naming the upstream). The envelope is
   * shared with every caller that gets the same cached answer: read it, do not change it.
   * `basePath` is the mount path its links are written under, as a request's would be.
   *
   * @example
   * const flow = await gateway.invoke('statnett', 'get_physical_flow', { area: 'NO1', limit: 5 })
   * flow.data // the rows; flow._meta.stale says whether a failing upstream left an older answer
   */
  invoke(
    source: string,
    operation: string,
    params?: Readonly<Record<string, unknown>>,
    options?: { basePath?: string },
  ): Promise<OperationEnvelope>
}

/**
 * Creates a gateway: a framework-agnostic `handle(request) → response` over the given
 * sources, with caching, validation, envelopes and errors. Adapters mount it.
 *
 * @example
 * import Keyv from 'keyv'
 * import { createGateway } from '@allmenning/core'
 * import { statnett } from '@allmenning/sources'
 *
 * const gateway = createGateway({ sources: [statnett()], cache: new Keyv(), publicBaseUrl: 'https://data.example.no' })
 * const res = await gateway.handle({ method: 'GET', path: '/api/v1/kilder/statnett/get_physical_flow', query: '', headers: {} })
 */
export function createGateway(options: GatewayOptions): LocalGateway {
  const resolved = resolveOptions(options)
  const catalog = createCatalog(options.sources, {
    overrides: options.upstreams,
    datasets: options.datasets,
    compileSources: options.compileSources,
    onError: (error) => resolved.onError(error, 'internal'),
  })
  const sharedStateError = (error: unknown) => resolved.onError(error, 'shared-state')
  const outageOf = outagePerRedisClient(options, sharedStateError)
  // One value for every part to check: undefined without observers, so no event is built.
  const observer = combineObservers(options.observers, (error) => resolved.onError(error, 'internal'))
  const health = createSourceHealth(
    () => catalog.sources,
    (dataset) => options.datasets?.reader(dataset) !== undefined,
  )
  const pipeline = createOperationCallDeps(options, {
    onError: resolved.onError,
    outageOf,
    upstreamSettings: createUpstreamSettings(options.upstream, defaultUserAgent, observer, health.breakerChanged),
    observer,
    health,
  })
  const limiter = options.rateLimit
    ? createRateLimiter(
        options.rateLimit,
        sharedStateError,
        options.rateLimit.redis && outageOf(options.rateLimit.redis),
        observer,
      )
    : undefined
  const operations = createOperationInvoker(catalog, pipeline)
  const extensions = createAttachedExtensions(options.extensions ?? [])

  let routes: ReturnType<typeof createRoutes> = []
  const context: GatewayContext = {
    catalog,
    options,
    resolved,
    pipeline,
    health,
    invoke: operations.invoke,
    documentation: documentationLink(options),
    routes: () => routes,
  }
  routes = createRoutes(context, extensions.list, extensions.answerOf)
  const router = createRouter(routes)
  const linkFactory = createLinkFactory(routes)
  const linksFor = (basePath: string | undefined): Links => linkFactory(options.publicBaseUrl, basePath)
  const handler = createRequestHandler({
    router,
    linksFor,
    limiter,
    maxQueryLength: resolved.maxQueryLength,
    onError: (error) => resolved.onError(error, 'internal'),
    observer,
    onResponse: options.onResponse,
  })
  extensions.attach(context, {
    version: packageVersion,
    router,
    limiter,
    // Paths every link is asked for below the mount point, whatever the public links look like.
    internalLinks: linkFactory(undefined, ''),
    linksFor,
    handle: handler.handleInside,
    errorAnswer: handler.errorAnswer,
    operations,
  })
  if (observer) {
    // The datasets the sources declare: what their operations read, known without loading them.
    const datasets = datasetsOf(catalog.sources.map((source) => ({ datasets: source.definition.datasets ?? [] })))
    observer.attached({
      datasets: () =>
        datasets.map((dataset) => ({ id: dataset.id, version: options.datasets?.reader(dataset)?.version })),
      health: () => health.report(),
    })
  }

  return {
    handle: handler.handle,
    answer: handler.answer,
    owns: handler.owns,
    answerHostError: handler.answerHostError,
    answerNotFound: handler.answerNotFound,
    answerRefusal: handler.answerRefusal,
    invoke: (source, operation, params = {}, { basePath } = {}) =>
      operations.invoke(source, operation, params, linksFor(basePath)),
  }
}
