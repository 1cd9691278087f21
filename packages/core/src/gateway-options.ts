import type Keyv from 'keyv'
import type { SourceDefinition } from './plugin/define-source.js'
import type { CompileSources } from './compile/compile-source.js'
import type { DatasetStore } from './plugin/dataset-store.js'
import type { UpstreamOverride } from './plugin/define-upstream.js'
import type { Feedback } from './feedback/feedback.js'
import type { Explorer } from './describe/explorer.js'
import type { SearchOptions } from './search/cross-source-search.js'
import type { PlaceOptions } from './places/place-bundle.js'
import type { SharedFlightOptions } from './cache/shared-flight.js'
import type { GatewayExtension } from './extensions/gateway-extension.js'
import type { RateLimitOptions } from './limit/rate-limit.js'
import type { createMemoryCacheStore } from './cache/memory-cache-store.js'
import type { GatewayObserver } from './observe/gateway-observer.js'
import type { ResponseHook } from './http/gateway-request.js'
import type { UpstreamDefaults } from './upstream/upstream-settings.js'

/** Where a reported error came from; `shared-state` is Redis failing the rate limiter or the shared single flight. */
export type ErrorKind = 'internal' | 'cache' | 'feedback' | 'shared-state'

export interface GatewayOptions {
  /** The sources to serve; built-ins are ordinary plugins. */
  sources: SourceDefinition[]
  /**
   * When the sources' definitions are compiled and checked (parameters read, aliases and place
   * fields checked against the schemas, entity links resolved). `'at-start'` (the default):
   * in `createGateway`, which throws a TypeError naming the first definition error, so a bad
   * plugin stops the process before it serves. `'on-first-use'`: each source when a request
   * first needs its operations (a call, a descriptor, a search or place bundle through it), so
   * a serverless cold start pays only for what it answers; the source list is answered from
   * the definitions alone. A definition error then answers 500 on every request that needs the
   * source, and is reported to `onError`: check plugins with `checkSource` in their tests
   * (`@allmenning/core/testing`). The Lambda example uses `'on-first-use'`. Operations a source
   * defers (`deferOperations`, as the built-in sources do) are loaded from the start with
   * `'at-start'` and compiled as they arrive, a failure then reported to `onError` (creating
   * the gateway cannot wait for them); with `'on-first-use'`, when a request first reads them.
   */
  compileSources?: CompileSources
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
  upstream?: UpstreamDefaults
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
  /**
   * How many bytes those answers may hold in all, each body counted twice: as text, and as the
   * UTF-8 bytes its hits write; 32 MiB by default.
   */
  hotCacheBytes?: number
  /**
   * How many bytes of upstream answers to keep in process, so that gateway calls making the
   * same upstream call (another page of a list, another `limit`, another filter the operation
   * applies itself) share one upstream answer while the asking operation's answers are fresh;
   * 16 MiB by default, 0 to call the upstream for every gateway answer made.
   */
  upstreamAnswerBytes?: number
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
   * lost connection never ends the process; set the client up as docs/operating.md says (a listener
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
   * The host's last word on every answer a client gets, in one function: routed answers and
   * cache hits, errors and 429s, the explorer's files, MCP's answers, and the host errors and
   * 404s the adapters' handlers answer through the gateway (`answerHostError`,
   * `answerNotFound`), and what the Node server refuses before any app sees it when it is given
   * the gateway (`answerServerRefusals(server, gateway)`: a request Node could not read comes
   * with an empty method and path and no headers, since none was read). It is given a copy of
   * the answer and the request: change the copy (add a header, rewrite the status or the body)
   * or return another answer; return nothing to keep it. It runs before conditional requests and HEAD are applied, so a header it adds reaches
   * a 304 and a HEAD as well; a body it changes should go with its ETag removed or made anew.
   * Keep it quick and synchronous: it runs on every answer. An error it throws is reported to
   * `onError` (`internal`) and the answer becomes the shared 500; so does an answer HTTP cannot
   * carry (a status outside 200–599, a header name that is not a token, a header value with a
   * line break or another control character). Calls an extension makes
   * inside the gateway (MCP's tools reading a route) are not answers and do not pass it.
   *
   * @example
   * createGateway({
   *   sources,
   *   onResponse(response, request) {
   *     response.headers['access-control-allow-origin'] = '*'
   *     if (request.headers['x-api-key'] === undefined && request.path.startsWith('/api/v1/kilder/')) {
   *       return { status: 401, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"error":{"status":401}}' }
   *     }
   *   },
   * })
   */
  onResponse?: ResponseHook
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
  /**
   * Hear what the gateway does, for metrics, traces and logs: requests, upstream calls,
   * cache lookups, breakers, rate-limit refusals (see `GatewayObserver`). None by default, and
   * then no event is built at all; `@allmenning/observability` has Prometheus metrics,
   * OpenTelemetry spans and a JSON request log.
   *
   * @example
   * import { prometheusMetrics } from '@allmenning/observability/prometheus'
   * const metrics = prometheusMetrics()
   * createGateway({ sources, observers: [metrics.observer] })
   */
  observers?: GatewayObserver[]
}

/** The options every part of a gateway reads, with their defaults filled in. */
export interface ResolvedOptions {
  onError(error: unknown, kind: ErrorKind): void
  onFeedback(feedback: Feedback): void | Promise<void>
  maxQueryLength: number
}

/**
 * The defaults of the options that several parts share: errors and feedback to the console,
 * query strings up to 4096 characters. Each part's own defaults live with the part.
 */
export function resolveOptions(options: GatewayOptions): ResolvedOptions {
  return {
    onError:
      options.onError ??
      ((error: unknown, kind: ErrorKind) => {
        console.error(`[allmenning] ${kind} error:`, error)
      }),
    onFeedback:
      options.onFeedback ??
      ((feedback: Feedback) => {
        console.info(`[allmenning] feedback: ${JSON.stringify(feedback)}`)
      }),
    maxQueryLength: options.maxQueryLength ?? 4096,
  }
}
