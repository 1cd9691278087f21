// Only `version` is imported, so bundlers leave the rest of package.json out.
import { version as packageVersion } from '../package.json'
import Keyv from 'keyv'
import type { Dispatcher } from 'undici'
import { createBestEffortCache, type CachedResponse } from './cache/best-effort-cache.js'
import { createCatalog } from './compile/catalog.js'
import type { SourceDefinition } from './plugin/define-source.js'
import type { DatasetStore } from './dataset/dataset-store.js'
import { datasetsOf } from './dataset/dataset-generations.js'
import type { UpstreamDefinition, UpstreamOverride } from './plugin/define-upstream.js'
import { errorResponse } from './http/error-response.js'
import { hostErrorResponse, hostRefusal } from './http/host-error.js'
import { ifNoneMatchHits } from './http/etag.js'
import { parseFeedback, type Feedback } from './describe/feedback.js'
import { createExplorerResponses, type Explorer } from './describe/explorer.js'
import { GatewayError } from './http/gateway-error.js'
import type { Gateway, GatewayRequest, GatewayResponse } from './http/gateway-request.js'
import { jsonResponse, staticResponse } from './http/json-response.js'
import { createLinks, queryString, type Links } from './http/links.js'
import { createHotCache } from './cache/hot-cache.js'
import { createLruMap } from './cache/lru-map.js'
import { createMemoryCacheStore } from './cache/memory-cache-store.js'
import { answerFromCache, cacheEntry, callOperation, operationCacheKey, type OperationCallDeps } from './pipeline/operation-call.js'
import { crossSourceSearch, searchTtlSeconds, type SearchOptions } from './search/cross-source-search.js'
import type { CompiledSource } from './compile/compile-source.js'
import { bundleTtlSeconds, placeBundle, type InvokedEnvelope, type PlaceOptions } from './places/place-bundle.js'
import { parseCoordinates, requestedFields } from './places/place-query.js'
import { placeSearch } from './places/place-search.js'
import { parseQueryString } from './http/query-string.js'
import { createRouter, type RouteMatch } from './http/router.js'
import type { Method, RouteCall, RouteDefinition } from './http/define-route.js'
import { createRoutes } from './routes.js'
import { createSingleFlight } from './cache/single-flight.js'
import { createSharedFlight, type SharedFlightOptions } from './cache/shared-flight.js'
import { createRedisOutage, type RedisOutage } from './cache/redis-outage.js'
import type { SharedRedisClient } from './cache/shared-redis-client.js'
import { extensionRoute, extensionSources, type GatewayExtension } from './http/gateway-extension.js'
import type { UpstreamSettings } from './upstream/upstream-client.js'
import { createUpstreamGuard, type UpstreamGuard } from './upstream/upstream-guard.js'
import { createRateLimiter, type RateLimitOptions, type RateVerdict } from './limit/rate-limit.js'
import { validateParameters } from './http/validate-parameters.js'

/** Where a reported error came from; `shared-state` is Redis failing the rate limiter or the shared single flight. */
export type ErrorKind = 'internal' | 'cache' | 'feedback' | 'shared-state'

export interface GatewayOptions {
  /** The sources to serve; built-ins are ordinary plugins. */
  sources: SourceDefinition[]
  /**
   * Any Keyv instance. By default a Keyv on {@link createMemoryCacheStore}: in this process,
   * least recently used first out past 32 MiB or 100,000 entries. Share one (Redis) across instances.
   */
  cache?: Keyv
  /** Public URL of the mount point (`https://data.example.no`); makes every link absolute. */
  publicBaseUrl?: string
  /** Link given as `wiki` for the gateway as a whole; the explorer page, or else the OpenAPI document, by default. */
  documentationUrl?: string
  /**
   * An API explorer served at `/api/v1/docs`: a page that renders the OpenAPI document and
   * sends requests, with its assets served by the gateway itself (no CDN) under a strict
   * Content-Security-Policy. None by default, so the core carries no renderer.
   *
   * @example
   * import { swaggerUiExplorer } from '@allmenning/explorer'
   * createGateway({ sources, explorer: swaggerUiExplorer() })
   */
  explorer?: Explorer
  /**
   * Base URL or time limit of an upstream, by upstream id (`brreg`, `avinor`, ...): a mirror, a
   * proxy, a local stand-in. An id no source uses is an error. The example servers fill this
   * from `ALLMENNING_UPSTREAM_<ID>` with `upstreamOverridesFromEnvironment`.
   */
  upstreams?: Record<string, UpstreamOverride>
  /** Defaults for every upstream call. */
  upstream?: {
    /** Per-call time limit; 10 000 ms by default. */
    timeoutMs?: number
    /** Identifies the gateway to upstream operators; set it to name your deployment and a contact. */
    userAgent?: string
    /** undici dispatcher for every upstream call (proxy, connection pool, mock). */
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
   * The time one request may spend on its upstreams, every call together: each upstream call
   * gets what is left of it (or its own time limit, when that is less), so an operation that
   * makes three calls in a row still answers within it, with a 502 naming the upstream when it
   * runs out. 10 000 ms by default; keep it below your platform's own limit (API Gateway: 29 s).
   */
  deadlineMs?: number
  /**
   * How long an operation's 404 (an organisation number or airport the upstream does not know)
   * is remembered, so asking again makes no upstream call; 60 s by default, never longer than
   * the operation's own cache time. 0 asks the upstream every time.
   */
  notFoundCacheSeconds?: number
  /** How long past freshness answers are kept to serve if the upstream fails; one day by default. */
  staleSeconds?: number
  /**
   * Where loaded bulk datasets are read (`createSqliteDatasetStore` from `@allmenning/datasets`);
   * without one, operations on datasets answer 502 `dataset_not_loaded`.
   */
  datasets?: DatasetStore
  /** How many fresh answers to keep in process in front of `cache`; 1000 by default, 0 for none. */
  hotCacheEntries?: number
  /** How many body bytes those answers may hold in all; 32 MiB by default. */
  hotCacheBytes?: number
  /** Time limit for one cache read or write; 200 ms by default. */
  cacheTimeoutMs?: number
  /**
   * Largest answer written to, or accepted from, `cache`; 8 MiB by default. What the store
   * holds is checked before it is served (shape, size, ETag of its body, a stored time not in
   * the future), so that another app writing the same store can never have its bytes served;
   * a value that fails is ignored and reported to `onError` as `cache`.
   */
  cacheEntryMaxBytes?: number
  /**
   * A single flight shared by every instance on one Redis: identical concurrent misses make one
   * upstream call among them all, not one per instance. Off unless given; give it the same
   * Redis as a shared `cache` (the others read the answer from there). When Redis fails or is
   * slow, or its client is not connected, each instance calls the upstream itself and reports
   * it to `onError` as `shared-state`. The gateway listens to the client's `error` event, so a
   * lost connection never ends the process; set the client up as the README says (a listener
   * of your own, a reconnect strategy that never gives up).
   *
   * @example
   * import { createClient, createKeyv } from '@keyv/redis'
   * const redis = createClient({ url, disableOfflineQueue: true, socket: { reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2000) } })
   * redis.on('error', (error) => console.error('Redis:', error.message))
   * redis.connect().catch(() => undefined)
   * createGateway({ sources, cache: createKeyv(redis), sharedFlight: { redis }, rateLimit: { redis } })
   */
  sharedFlight?: SharedFlightOptions
  /** Longest query string accepted (a 414 beyond it); 4096 characters by default. */
  maxQueryLength?: number
  /** Limits of entity search in `/api/v1/sok/alle`: its deadline, each source's budget, how many sources it fans out to. */
  search?: SearchOptions
  /** The time limit of a place bundle (`/api/v1/steder/{lat}/{lon}`). */
  places?: PlaceOptions
  /**
   * Per-client rate limits (spec section 7): a 429 in the shared error body with Retry-After,
   * and the IETF `RateLimit-Policy` and `RateLimit` headers on every counted answer. Off unless
   * given; `{}` turns it on with the defaults (300 requests a minute, 30 for expensive routes).
   * Clients are told apart by the address the adapter reports (Express `req.ip`, Koa `ctx.ip`,
   * Lambda's source IP) or by your own `clientKey`.
   *
   * @example
   * createGateway({ sources, rateLimit: { quota: { requests: 120, windowSeconds: 60 }, clientKey: (req) => String(req.headers['x-api-key'] ?? '') || undefined } })
   */
  rateLimit?: RateLimitOptions
  /** Receives feedback posted to `/api/v1/feedback`; logged to the console by default. */
  onFeedback?: (feedback: Feedback) => void | Promise<void>
  /**
   * Hears unexpected errors (`internal`), cache-store failures and refused cache entries
   * (`cache`), Redis failing the rate limiter or the shared flight (`shared-state`), and failing
   * feedback handlers (`feedback`); `console.error` by default.
   */
  onError?: (error: unknown, kind: ErrorKind) => void
  /**
   * Protocols served beside the JSON API by packages of their own, each at `/{name}` and
   * `/{source}/{name}` under the mount point. None by default, so the core carries none of
   * their code: MCP is `mcpServers()` from `@allmenning/mcp`.
   *
   * @example
   * import { mcpServers } from '@allmenning/mcp'
   * createGateway({ sources, extensions: [mcpServers()] })
   */
  extensions?: GatewayExtension[]
}

export const defaultUserAgent = `allmenning/${packageVersion}`

/** A request's route and validated parameters, reused by every request with the same path and query. */
interface RequestPlan {
  match: RouteMatch
  params: Record<string, unknown>
  links: Links
  /** Cache key of an operation call, or the key its static answer is kept under. */
  key: string
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value
}

function finish(response: GatewayResponse, method: string, request: GatewayRequest): GatewayResponse {
  const etag = response.headers.etag
  if (response.status === 200 && etag && ifNoneMatchHits(request.headers['if-none-match'], etag)) {
    const { 'content-type': _type, 'content-length': _length, ...headers } = response.headers
    return { status: 304, headers, body: null }
  }
  return method === 'HEAD' ? { ...response, body: null } : response
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
export function createGateway(options: GatewayOptions): Gateway {
  const catalog = createCatalog(options.sources, options.upstreams, options.datasets)
  const onError =
    options.onError ??
    ((error: unknown, kind: ErrorKind) => {
      console.error(`[allmenning] ${kind} error:`, error)
    })
  const onFeedback =
    options.onFeedback ??
    ((feedback: Feedback) => {
      console.info(`[allmenning] feedback: ${JSON.stringify(feedback)}`)
    })
  const maxQueryLength = options.maxQueryLength ?? 4096
  const upstreamDefaults = {
    timeoutMs: options.upstream?.timeoutMs ?? 10_000,
    userAgent: options.upstream?.userAgent ?? defaultUserAgent,
    maxBodyBytes: options.upstream?.maxBodyBytes ?? 2 * 1024 * 1024,
    ...(options.upstream?.dispatcher ? { dispatcher: options.upstream.dispatcher } : {}),
  }
  const settingsCache = new WeakMap<UpstreamDefinition, UpstreamSettings>()
  // One guard per upstream id: every request of this gateway shares its breaker and slots.
  const guards = new Map<string, UpstreamGuard>()
  const guardOf = (upstream: UpstreamDefinition): UpstreamGuard => {
    let guard = guards.get(upstream.id)
    if (!guard) {
      guard = createUpstreamGuard(upstream, {
        maxConcurrent: upstream.maxConcurrent ?? options.upstream?.maxConcurrent ?? 16,
        maxQueued: options.upstream?.maxQueued ?? 64,
        breakAfter: options.upstream?.breakAfterFailures ?? 5,
        restMs: (options.upstream?.restSeconds ?? 30) * 1000,
        retryConnect: options.upstream?.retryConnect ?? true,
        maxRetryAfterMs: (options.upstream?.maxRetryAfterSeconds ?? 600) * 1000,
      })
      guards.set(upstream.id, guard)
    }
    return guard
  }
  const sharedStateError = (error: unknown) => onError(error, 'shared-state')
  // One per client: the rate limiter and the single flight usually share one, whose errors are then heard and reported once.
  const outages = new Map<SharedRedisClient, RedisOutage>()
  const outageOf = (redis: SharedRedisClient) => {
    let outage = outages.get(redis)
    if (!outage) {
      const what = [
        options.rateLimit?.redis === redis && 'rate limits are counted in process',
        options.sharedFlight?.redis === redis && 'each instance calls its upstreams alone',
      ].filter(Boolean)
      outage = createRedisOutage(redis, sharedStateError, { what: what.join(' and '), hearErrors: true })
      outages.set(redis, outage)
    }
    return outage
  }
  const deps: OperationCallDeps = {
    cache: createBestEffortCache(options.cache ?? new Keyv({ store: createMemoryCacheStore() }), {
      timeoutMs: options.cacheTimeoutMs ?? 200,
      maxEntryBytes: options.cacheEntryMaxBytes ?? 8 * 1024 * 1024,
      onError: (error) => onError(error, 'cache'),
    }),
    hot: createHotCache(options.hotCacheEntries ?? 1000, options.hotCacheBytes ?? 32 * 1024 * 1024),
    flights: createSingleFlight<{ entry: CachedResponse; collapsed: boolean }>(),
    ...(options.sharedFlight ? { sharedFlight: createSharedFlight(options.sharedFlight, sharedStateError, outageOf(options.sharedFlight.redis)) } : {}),
    staleSeconds: options.staleSeconds ?? 86_400,
    deadlineMs: options.deadlineMs ?? 10_000,
    notFoundSeconds: options.notFoundCacheSeconds ?? 60,
    ...(options.datasets ? { datasets: options.datasets } : {}),
    upstreamSettings(upstream) {
      let settings = settingsCache.get(upstream)
      if (!settings) {
        settings = {
          ...upstreamDefaults,
          id: upstream.id,
          name: upstream.name,
          baseUrl: upstream.baseUrl,
          timeoutMs: upstream.timeoutMs ?? upstreamDefaults.timeoutMs,
          maxBodyBytes: upstream.maxBodyBytes ?? upstreamDefaults.maxBodyBytes,
          guard: guardOf(upstream),
        }
        settingsCache.set(upstream, settings)
      }
      return settings
    },
  }
  const limiter = options.rateLimit ? createRateLimiter(options.rateLimit, sharedStateError, options.rateLimit.redis && outageOf(options.rateLimit.redis)) : undefined
  const staticResponses = createLruMap<string, GatewayResponse>(500)

  const plans = createLruMap<string, RequestPlan>(1000)
  const explorer = options.explorer ? { name: options.explorer.name, ...createExplorerResponses(options.explorer, { publicBaseUrl: options.publicBaseUrl }) } : undefined
  const documentation = (links: Links) => options.documentationUrl ?? links.api(explorer ? '/docs' : '/openapi.json')

  async function receiveFeedback({ request, links }: RouteCall): Promise<GatewayResponse> {
    const body = request.readBody ? await request.readBody() : undefined
    const feedback = parseFeedback(body, { contentType: headerValue(request.headers['content-type']), contentLength: headerValue(request.headers['content-length']) }, catalog)
    try {
      await onFeedback(feedback)
    } catch (error) {
      onError(error, 'feedback')
      throw new GatewayError(500, 'internal_error', 'The feedback could not be recorded; please try again later')
    }
    return jsonResponse(202, { status: 'accepted', feedback, _links: { api_index: links.index() } }, { 'cache-control': 'no-store' })
  }

  /** Calls an operation from inside the gateway (searches, place bundles) exactly as its GET route would, and gives its envelope. */
  async function invokeOperation(source: CompiledSource, name: string, parameters: Record<string, unknown>, links: Links): Promise<InvokedEnvelope> {
    const { operation } = catalog.operation(source.id, name)
    const query = parseQueryString(queryString(parameters).slice(1), Number.MAX_SAFE_INTEGER)
    const params = validateParameters(query, operation.parameters, operation.ignoredParameters)
    const response = await callOperation(deps, { source, operation, parameters: params, links, key: operationCacheKey(source, operation, params, links) })
    if (response.status === 404) {
      // A remembered 404 comes back as an answer; to a caller inside the gateway it is the same error as the first time.
      const { error } = JSON.parse(response.body!) as { error: { message: string } }
      throw new GatewayError(404, 'entity_not_found', error.message)
    }
    return JSON.parse(response.body!) as InvokedEnvelope
  }
  const dataOf = (links: Links) => async (source: CompiledSource, name: string, parameters: Record<string, unknown>) =>
    (await invokeOperation(source, name, parameters, links)).data
  const providers = catalog.places
  // Searches and bundles are cached as a whole, so under the generations of every dataset
  // the operations they may call read: a search calls its sources' own operations.
  const searchDatasets = datasetsOf(catalog.sources.filter((s) => s.definition.entitySearch).flatMap((s) => [...s.operations.values()]))
  const bundleDatasets = datasetsOf([...providers.values()].map(({ operation }) => operation))

  // Paths every link is asked for below the mount point, whatever the public links look like.
  const internalLinks = createLinks(undefined, '')
  // What every extension is told of the sources: made once, whatever the number of extensions.
  const sourcesForExtensions = options.extensions?.length ? extensionSources(catalog, internalLinks) : []
  const extensions = (options.extensions ?? []).map((extension, i, all) => {
    if (!/^[a-z][a-z0-9_-]*$/.test(extension.name) || extension.name === 'api' || all.findIndex((e) => e.name === extension.name) !== i) {
      throw new TypeError(`An extension needs a name of its own made of a-z, 0-9, _ and - (got ${JSON.stringify(extension.name)})`)
    }
    const answer = extension.attach({
      version: packageVersion,
      sources: sourcesForExtensions,
      routes: () => router.routes.map(extensionRoute),
      // Every call an extension makes goes through the front door, so whatever guards it guards them too.
      handle: (request) => gateway.handle(request),
      count: (request) => limiter?.check(request, false),
      errorResponse,
      onError: (error) => onError(error, 'internal'),
    })
    return { extension, answer }
  })
  const routes: RouteDefinition[] = createRoutes({
    catalog,
    documentation,
    routes: () => routes,
    ...(explorer ? { explorer } : {}),
    receiveFeedback,
    callOperation: ({ path, params, links, key }) => {
      const { source, operation } = catalog.operation(path.source!, path.operation!)
      return callOperation(deps, { source, operation, parameters: params, links, key })
    },
    search: ({ params, links, key }) =>
      answerFromCache(
        deps,
        key,
        async () => {
          const parts = { catalog, options: options.search ?? {}, onError: (error: unknown) => onError(error, 'internal'), call: dataOf(links) }
          const answer = await crossSourceSearch(parts, params, links, documentation(links))
          return cacheEntry(answer, searchTtlSeconds(answer))
        },
        searchDatasets,
      ),
    placeSearch: ({ params, links, key }) =>
      answerFromCache(
        deps,
        key,
        async () => {
          const answer = await placeSearch(catalog, params, options.search ?? {}, dataOf(links), links)
          return cacheEntry(answer, searchTtlSeconds(answer))
        },
        searchDatasets,
      ),
    placeBundle: ({ params, path, links, key }) =>
      answerFromCache(
        deps,
        key,
        async () => {
          const bundle = await placeBundle({
            point: parseCoordinates(path),
            section: params.section,
            fields: params.fields === undefined ? undefined : requestedFields(params.fields),
            providers,
            options: options.places ?? {},
            call: (source, name, parameters) => invokeOperation(source, name, parameters, links),
            links,
          })
          return cacheEntry(bundle, bundleTtlSeconds(bundle, providers))
        },
        bundleDatasets,
      ),
    extensions,
  })
  const router = createRouter(routes)

  /** The request's plan, made once per distinct path and query; a 405 comes before parameters are looked at. */
  function plan(request: GatewayRequest, method: string): RequestPlan {
    const id = `${request.path}\u0000${request.query}\u0000${request.basePath ?? ''}`
    const known = plans.get(id)
    const match = known?.match ?? router.match(request.path)
    const allowed = match.route.methods
    if (!(allowed as readonly string[]).includes(method)) {
      throw new GatewayError(405, 'method_not_allowed', `${method} is not allowed here; use ${allowed.join(', ')}`, {
        headers: { allow: allowed.join(', ') },
      })
    }
    if (known) return known
    const links = createLinks(options.publicBaseUrl, request.basePath)
    const query = parseQueryString(request.query, maxQueryLength)
    const params = validateParameters(query, match.parameters, match.ignored)
    const definition = match.route.definition
    const key = definition.cacheKey
      ? definition.cacheKey({ params, path: match.path, links })
      : `${links.root}\u0000${definition.name}\u0000${JSON.stringify(match.path)}\u0000${JSON.stringify(params)}`
    const made = { match, params, links, key }
    plans.set(id, made)
    return made
  }

  function route(plan: RequestPlan, method: Method, request: GatewayRequest): GatewayResponse | Promise<GatewayResponse> {
    const { match, params, links, key } = plan
    const definition = match.route.definition
    const call = { params, path: match.path, links, request, method, key }
    if (definition.staticMaxAgeSeconds === undefined || method === 'POST') {
      return definition.answer(call) as GatewayResponse | Promise<GatewayResponse>
    }
    // Produced once, so the ETag stays the same and If-None-Match can answer 304.
    let response = staticResponses.get(key)
    if (!response) {
      response = staticResponse(definition.answer(call), definition.staticMaxAgeSeconds)
      staticResponses.set(key, response)
    }
    return response
  }

  /** Answers a request the rate limiter has counted: a 429 when over a quota, else the answer with its RateLimit headers. */
  async function answerCounted(verdict: RateVerdict, planned: RequestPlan, method: string, request: GatewayRequest): Promise<GatewayResponse> {
    if (verdict.refusal) return fail(verdict.refusal, method, request)
    let response: GatewayResponse
    try {
      response = await route(planned, method as Method, request)
    } catch (error) {
      response = fail(error, method, request)
    }
    // Answers are shared between requests (cache hits), so the headers go on a copy.
    return finish({ ...response, headers: { ...response.headers, ...verdict.headers } }, method, request)
  }

  function fail(error: unknown, method: string, request: GatewayRequest): GatewayResponse {
    if (!(error instanceof GatewayError) || error.status === 500) onError(error, 'internal')
    return finish(errorResponse(error, createLinks(options.publicBaseUrl, request.basePath)), method, request)
  }

  const gateway: Gateway = {
    owns: (path) => router.owns(path),
    answerHostError(error, request) {
      let refuse: RouteDefinition['refuseHostError']
      try {
        refuse = router.owns(request.path) ? router.match(request.path).route.definition.refuseHostError : undefined
      } catch {
        // No route there (an unknown path under /api): the shared error body.
      }
      return refuse ? refuse(hostRefusal(error)) : hostErrorResponse(error, request.basePath)
    },
    handle(request) {
      const method = request.method.toUpperCase()
      try {
        const planned = plan(request, method)
        const definition = planned.match.route.definition
        const verdict = definition.countsItself ? undefined : limiter?.check(request, definition.expensive === true)
        if (verdict) return verdict.then((v) => answerCounted(v, planned, method, request)).catch((error: unknown) => fail(error, method, request))
        const response = route(planned, method as Method, request)
        // A cached answer is already there: no need to wait a turn for it.
        if (!(response instanceof Promise)) return Promise.resolve(finish(response, method, request))
        return response.then(
          (done) => finish(done, method, request),
          (error: unknown) => fail(error, method, request),
        )
      } catch (error) {
        return Promise.resolve(fail(error, method, request))
      }
    },
  }
  return gateway
}
