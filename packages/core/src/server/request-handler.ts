import { createLruMap } from '../util/lru-map.js'
import type { RateLimiter, RateVerdict } from '../limit/rate-limit.js'
import type { Method, RouteDefinition } from '../routing/define-route.js'
import { errorResponse } from '../http/error-response.js'
import { ifNoneMatchHits } from '../http/etag.js'
import { GatewayError } from '../http/gateway-error.js'
import type { Gateway, GatewayRequest, GatewayResponse, HostRequest, ResponseHook } from '../http/gateway-request.js'
import { hostErrorResponse, hostRefusal, notFoundResponse } from '../http/host-error.js'
import { staticResponse } from '../http/json-response.js'
import { unwritable } from '../http/unwritable.js'
import { upperCaseMethod } from '../http/upper-case-method.js'
import { cacheKey } from '../cache/cache-key.js'
import type { Links } from '../http/links.js'
import { parseQueryString } from '../http/query-string.js'
import type { RouteMatch, Router } from '../routing/router.js'
import { validateParameters } from '../routing/validate-parameters.js'
import { linkBase } from '../http/links.js'
import type { GatewayObservers, ObservedRequest } from '../observe/gateway-observer.js'

/** A request's route and validated parameters, reused by every request with the same path and query. */
interface RequestPlan {
  match: RouteMatch
  params: Record<string, unknown>
  links: Links
  /** Cache key of an operation call, or the key its static answer is kept under. */
  key: string
}

export interface RequestHandlerParts {
  router: Router
  linksFor(basePath: string | undefined): Links
  limiter: RateLimiter | undefined
  maxQueryLength: number
  onError(error: unknown): void
  /** Hears each request start and end; none when the gateway has no observers. */
  observer?: GatewayObservers | undefined
  /** The host's last word on every answer a client gets (`GatewayOptions.onResponse`). */
  onResponse?: ResponseHook | undefined
}

/**
 * How an answer leaves: through the host's hook and then conditional requests and HEAD, and,
 * when the gateway has observers, told to them as the request's end.
 */
type Exit = (
  response: GatewayResponse,
  method: string,
  request: GatewayRequest,
  observed: ObservedRequest | undefined,
) => GatewayResponse

/** A request's plan, with what it was planned for, in the table of recent plans. */
interface RecentPlan {
  path: string
  query: string
  basePath: string
  plan: RequestPlan
}

/** Size of the table of recent plans: a power of two, a handful of hot requests each. */
const recentSlots = 64

/** Where a request's plan sits in the recent table: from lengths and last characters, nothing that hashes every character. */
function recentSlot(path: string, query: string): number {
  return (
    (path.length * 31 +
      query.length * 17 +
      path.charCodeAt(path.length - 1) +
      (query.charCodeAt(query.length - 1) | 0)) &
    (recentSlots - 1)
  )
}

/** Conditional requests and HEAD, the last step of every answer. */
function finish(response: GatewayResponse, method: string, request: GatewayRequest): GatewayResponse {
  const etag = response.headers.etag
  if (response.status === 200 && etag && ifNoneMatchHits(request.headers['if-none-match'], etag)) {
    const { 'content-type': _type, 'content-length': _length, ...headers } = response.headers
    return { status: 304, headers, body: null }
  }
  return method === 'HEAD' ? { ...response, body: null } : response
}

/**
 * The answer with the rate limiter's headers, on a copy: answers are shared between requests
 * (cache hits). The headers copied with Object.assign and the two set by name: a spread copy
 * gets a slow shape once more keys follow (ten times the cost of the whole cache hit), and
 * Object.assign given the verdict's headers too, or a loop over them, costs a third more.
 */
function withLimits(response: GatewayResponse, verdict: RateVerdict | undefined): GatewayResponse {
  if (!verdict) return response
  const headers = Object.assign({}, response.headers)
  headers['ratelimit-policy'] = verdict.headers['ratelimit-policy']
  headers.ratelimit = verdict.headers.ratelimit
  return { status: response.status, headers, body: response.body, encoded: response.encoded }
}

/**
 * The gateway's front door over a router: the method check, the query validated once per
 * distinct request, the rate limit, static answers made once, conditional requests and HEAD,
 * and every failure as the shared error body.
 */
export function createRequestHandler(parts: RequestHandlerParts) {
  const { router, limiter } = parts
  const staticResponses = createLruMap<string, GatewayResponse>(500)
  const plans = createLruMap<string, RequestPlan>(1000)
  // In front of the plans: looking one up by its id hashes the whole path and query anew
  // for every request, the larger part of what a cache hit costs the core. A slot found by
  // lengths and last characters, checked by comparing the strings, skips that for requests
  // seen lately. A plan never goes stale, so one the LRU has let go is still right here.
  const recent: (RecentPlan | undefined)[] = new Array<RecentPlan | undefined>(recentSlots).fill(undefined)

  function knownPlan(request: GatewayRequest, basePath: string, slot: number): RequestPlan | undefined {
    const seen = recent[slot]
    if (seen !== undefined && seen.path === request.path && seen.query === request.query && seen.basePath === basePath)
      return seen.plan
    const known = plans.get(`${request.path}\u0000${request.query}\u0000${basePath}`)
    if (known) recent[slot] = { path: request.path, query: request.query, basePath, plan: known }
    return known
  }

  /**
   * The request's plan, made once per distinct path and query; a 405 comes before parameters
   * are looked at. A promise instead when the route must load what it reads first.
   */
  function plan(
    request: GatewayRequest,
    method: string,
    observed: ObservedRequest | undefined,
  ): RequestPlan | Promise<void> {
    const basePath = request.basePath ?? ''
    const slot = recentSlot(request.path, request.query)
    const known = knownPlan(request, basePath, slot)
    const match = known?.match ?? router.match(request.path)
    if (observed) observed.route = match.route.template
    const allowed = match.route.methods
    if (!(allowed as readonly string[]).includes(method)) {
      throw new GatewayError(405, 'method_not_allowed', `${method} is not allowed here; use ${allowed.join(', ')}`, {
        headers: { allow: allowed.join(', ') },
      })
    }
    if (known) return known
    if (match.loading) return match.loading
    const links = parts.linksFor(request.basePath)
    const query = parseQueryString(request.query, parts.maxQueryLength)
    const params = validateParameters(query, match.parameters, match.ignored)
    const definition = match.route.definition
    const key = definition.cacheKey
      ? definition.cacheKey({ params, path: match.path, links })
      : cacheKey(links, 'route', definition.name, JSON.stringify(match.path), JSON.stringify(params))
    const made = { match, params, links, key }
    plans.set(`${request.path}\u0000${request.query}\u0000${basePath}`, made)
    recent[slot] = { path: request.path, query: request.query, basePath, plan: made }
    return made
  }

  function route(
    plan: RequestPlan,
    method: Method,
    request: GatewayRequest,
    observed: ObservedRequest | undefined,
  ): GatewayResponse | Promise<GatewayResponse> {
    const { match, params, links, key } = plan
    const definition = match.route.definition
    const call = { params, path: match.path, links, request, method, key, observed }
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

  /**
   * Answers a request the rate limiter has counted (or that it does not limit): a 429 when over
   * a quota, else the answer, or the failure, with its RateLimit headers. The answer itself when
   * it is there already (a cache hit): no promise made, no turn waited for it.
   */
  function answerCounted(
    verdict: RateVerdict | undefined,
    planned: RequestPlan,
    method: string,
    request: GatewayRequest,
    observed: ObservedRequest | undefined,
    exit: Exit,
  ): GatewayResponse | Promise<GatewayResponse> {
    if (verdict?.refusal) return fail(verdict.refusal, method, request, observed, exit)
    let response: GatewayResponse | Promise<GatewayResponse>
    try {
      response = route(planned, method as Method, request, observed)
    } catch (error) {
      return failCounted(error, verdict, method, request, observed, exit)
    }
    if (!(response instanceof Promise)) return exit(withLimits(response, verdict), method, request, observed)
    return response.then(
      (done) => exit(withLimits(done, verdict), method, request, observed),
      (error: unknown) => failCounted(error, verdict, method, request, observed, exit),
    )
  }

  /** A failure of a counted request: the shared error body, with its RateLimit headers. */
  function failCounted(
    error: unknown,
    verdict: RateVerdict | undefined,
    method: string,
    request: GatewayRequest,
    observed: ObservedRequest | undefined,
    exit: Exit,
  ): GatewayResponse {
    return exit(withLimits(errorAnswer(error, request.basePath), verdict), method, request, observed)
  }

  /** The shared error body of a failure; unexpected ones (not a GatewayError, or a 500) are reported. */
  function errorAnswer(error: unknown, basePath: string | undefined): GatewayResponse {
    if (!(error instanceof GatewayError) || error.status === 500) parts.onError(error)
    return errorResponse(error, parts.linksFor(basePath))
  }

  function fail(
    error: unknown,
    method: string,
    request: GatewayRequest,
    observed: ObservedRequest | undefined,
    exit: Exit,
  ): GatewayResponse {
    return exit(errorAnswer(error, request.basePath), method, request, observed)
  }

  /**
   * The one exit of every answer a client gets, routed or not: the host's hook on a copy (answers
   * are shared between requests), then conditional requests and HEAD, so that a header the hook
   * adds reaches a 304 too. A hook that throws, or whose answer HTTP cannot carry, is reported
   * and answered with the shared 500.
   */
  const onResponse = parts.onResponse
  const leave: Exit = onResponse
    ? (response, method, request) => {
        let changed: GatewayResponse
        try {
          // The body's bytes go along: `bodyBytes` gives them only while the body is still theirs.
          const copy = {
            status: response.status,
            headers: Object.assign({}, response.headers),
            body: response.body,
            encoded: response.encoded,
          }
          changed = onResponse(copy, request) ?? copy
          // What the hook set must still be HTTP: a value with a line break would make the
          // adapter throw as it writes, after the exit, where only the framework could answer.
          const fault = unwritable(changed, response.headers)
          if (fault !== undefined) throw new TypeError(`onResponse gave an answer HTTP cannot carry: ${fault}`)
        } catch (error) {
          changed = errorAnswer(error, request.basePath)
        }
        return finish(changed, method, request)
      }
    : finish

  /**
   * Plans, counts and answers a request; when its route must load first, again once it has.
   * The answer itself when nothing had to be waited for, else a promise of it; never a throw
   * or a rejection.
   */
  function answerRequest(
    request: GatewayRequest,
    observed: ObservedRequest | undefined,
    exit: Exit,
  ): GatewayResponse | Promise<GatewayResponse> {
    const method = upperCaseMethod(request.method)
    try {
      const planned = plan(request, method, observed)
      // Loaded, or failed to (then reading the source throws its error): the plan is made again.
      if (planned instanceof Promise) return planned.then(() => answerRequest(request, observed, exit))
      const definition = planned.match.route.definition
      const verdict = definition.countsItself ? undefined : limiter?.check(request, definition.expensive === true)
      if (verdict instanceof Promise) {
        return verdict
          .then((v) => answerCounted(v, planned, method, request, observed, exit))
          .catch((error: unknown) => fail(error, method, request, observed, exit))
      }
      return answerCounted(verdict, planned, method, request, observed, exit)
    } catch (error) {
      return fail(error, method, request, observed, exit)
    }
  }

  /** A host door's request as the hook sees it: what the adapter did not say is an empty query and no headers. */
  const asRequest = (request: HostRequest): GatewayRequest => ({
    method: request.method ?? 'GET',
    path: request.path,
    query: request.query ?? '',
    headers: request.headers ?? {},
    basePath: request.basePath,
  })

  const gateway: Required<
    Pick<Gateway, 'handle' | 'answer' | 'owns' | 'answerHostError' | 'answerNotFound' | 'answerRefusal'>
  > = {
    owns: (path) => router.owns(path),
    answerHostError(error, hostRequest) {
      const request = asRequest(hostRequest)
      let refuse: RouteDefinition['refuseHostError']
      try {
        refuse = router.owns(request.path) ? router.match(request.path).route.definition.refuseHostError : undefined
      } catch {
        // No route there (an unknown path under /api): the shared error body.
      }
      const response = refuse ? refuse(hostRefusal(error)) : hostErrorResponse(error, request.basePath)
      return leave(response, upperCaseMethod(request.method), request, undefined)
    },
    answerNotFound(hostRequest) {
      const request = asRequest(hostRequest)
      return leave(
        notFoundResponse(request.path, request.basePath),
        upperCaseMethod(request.method),
        request,
        undefined,
      )
    },
    answerRefusal(refusal, hostRequest) {
      const request = asRequest(hostRequest)
      return leave(
        errorResponse(refusal, linkBase(undefined, request.basePath ?? '')),
        upperCaseMethod(request.method),
        request,
        undefined,
      )
    },
    answer: (request) => answerRequest(request, undefined, leave),
    handle: (request) => Promise.resolve(answerRequest(request, undefined, leave)),
  }
  // Calls an extension makes inside the gateway (MCP's tools reading a route) are not answers
  // to a client: the host's hook does not see them.
  let handleInside = (request: GatewayRequest) => Promise.resolve(answerRequest(request, undefined, finish))
  // Only with observers is each request wrapped: without, `handle` is the answer itself. With
  // them, a request is timed and described only while one of them records requests.
  const observer = parts.observer
  if (observer) {
    const toldLeave = tellingExit(observer, leave)
    const toldFinish = tellingExit(observer, finish)
    const observed = (request: GatewayRequest) => (observer.observing() ? observeRequest(observer, request) : undefined)
    gateway.answer = (request) => answerRequest(request, observed(request), toldLeave)
    gateway.handle = (request) => Promise.resolve(answerRequest(request, observed(request), toldLeave))
    handleInside = (request) => Promise.resolve(answerRequest(request, observed(request), toldFinish))
  }

  return { ...gateway, handleInside, errorAnswer }
}

/** A request as observers see it, told to them as it starts; the answer fills it in on the way. */
function observeRequest(observer: GatewayObservers, request: GatewayRequest): ObservedRequest {
  // Every field the answer fills in is there from the start: one object shape for every request.
  const seen: ObservedRequest = {
    request,
    method: upperCaseMethod(request.method),
    startedAt: performance.now(),
    route: undefined,
    source: undefined,
    operation: undefined,
    cache: undefined,
    joined: undefined,
    status: undefined,
    durationMs: undefined,
  }
  observer.requestStarted(seen)
  return seen
}

/**
 * The exit, telling the observers of the request's end as its answer leaves. In the exit, not in
 * a `then` on the answer: that would make a promise and wait a turn on every request of a
 * gateway with observers.
 */
function tellingExit(observer: GatewayObservers, exit: Exit): Exit {
  return (response, method, request, observed) => {
    const answer = exit(response, method, request, observed)
    if (observed) {
      observed.status = answer.status
      observed.durationMs = performance.now() - observed.startedAt
      observer.requestFinished(observed)
    }
    return answer
  }
}
