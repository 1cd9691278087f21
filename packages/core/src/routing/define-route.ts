import type { ObservedRequest } from '../observe/gateway-observer.js'
import type * as v from 'valibot'
import type { JsonSchema } from '../compile/json-schema.js'
import { compileParameters, type CompiledParameter } from '../compile/compile-parameters.js'
import type { ParameterSchemas } from '../plugin/define-operation.js'
import type { GatewayError } from '../http/gateway-error.js'
import type { GatewayRequest, GatewayResponse } from '../http/gateway-request.js'
import type { GatewayTag } from './openapi-tags.js'
import { apiPath, type Links } from '../http/links.js'

export type Method = 'GET' | 'HEAD' | 'POST'

/** The path space a route lives in: the JSON API under `/api/v1`, or the mount point itself. */
export type RouteRoot = 'api' | 'mount'

/** A route's validated query parameters, typed from its schemas. */
export type RouteParameters<P extends ParameterSchemas> = { [K in keyof P]: v.InferOutput<P[K]> }

/** What a route's answer is made from. */
export interface RouteCall<P extends ParameterSchemas = ParameterSchemas> {
  params: RouteParameters<P>
  /** Path parameters by name, percent-decoded. */
  path: Record<string, string>
  links: Links
  request: GatewayRequest
  method: Method
  /** The key the answer is kept under: the route's `cacheKey`, or one made of the route, path and parameters. */
  key: string
  /** The request as the gateway's observers see it; none when it has no observers. */
  observed?: ObservedRequest | undefined
}

/**
 * The query parameters a route takes: `parameters` are listed and passed on; `ignored` are
 * accepted and checked but neither listed nor passed on.
 */
export interface RouteQuery {
  parameters: CompiledParameter[]
  ignored: CompiledParameter[]
}

/** A path parameter as OpenAPI describes it. */
export interface PathParameter {
  description: string
  schema: JsonSchema
}

/**
 * One route: everything about it in one record, from which the router, the method check, the
 * parameter validation, the OpenAPI path and the API index entry are all derived.
 */
export interface RouteDefinition<P extends ParameterSchemas = ParameterSchemas> {
  /** Its key in the API index's `endpoints`. */
  name: string
  /** Path below its root; `{name}` segments are path parameters: `/kilder/{source}`. */
  path: string
  /**
   * Where the path hangs: below `/api/v1` (`api`, the default), or directly below the gateway's
   * mount point (`mount`), as extensions' endpoints (MCP's `/mcp` and `/{source}/mcp`) do.
   */
  root?: RouteRoot
  summary: string
  /** What the route answers and how, for OpenAPI's `description`: every route OpenAPI lists needs one. */
  description?: string
  /** The OpenAPI tag it is listed under: every route OpenAPI lists needs one. */
  tag?: GatewayTag
  /** GET and HEAD when left out. HEAD always answers as GET without the body. */
  methods?: readonly Method[]
  /** Query parameters as valibot schemas, as operations declare theirs. */
  query?: P
  pathParameters?: Record<string, PathParameter>
  /** The query part of the route's URI template when its parameters depend on the path: `{?parameters*}`. */
  queryTemplate?: string
  /**
   * Checks the path parameters (a 404 for an unknown source) and gives the query parameters
   * when they depend on the path, as an operation's do.
   */
  resolve?(path: Record<string, string>): RouteQuery | void
  /**
   * Loads what the route reads before it resolves and answers: the deferred operations of the
   * sources it reads (`catalog.load`, see `deferOperations`). Undefined when all is there; a
   * route that reads no source's operations (the source list, the API index) leaves it out.
   */
  prepare?(path: Record<string, string>): Promise<void> | undefined
  /** The key its answer is cached under, when the route caches through the gateway's cache. */
  cacheKey?(call: Omit<RouteCall<P>, 'key' | 'request' | 'method'>): string
  /** JSON Schema of the answer, for OpenAPI; any object when left out. */
  response?: JsonSchema
  /** JSON Schema of a POST body, for OpenAPI. */
  requestBody?: JsonSchema
  /**
   * Set when the answer depends only on the configuration and the request: it is then made
   * once per distinct request and kept, so its ETag holds and If-None-Match can answer 304.
   */
  staticMaxAgeSeconds?: number
  /** Set on routes that fan out to many upstreams: the stricter `rateLimit.expensive` quota counts them too. */
  expensive?: boolean
  /**
   * Set when the answer applies the rate limit itself rather than per request: extensions'
   * endpoints (MCP) count each call as the GET it stands for, and a POST that calls nothing
   * once, so the gateway does not count the POST as well.
   */
  countsItself?: boolean
  /**
   * How the route answers a request the host app refused before the gateway saw it (a body
   * its parser could not read): an extension's endpoints in their protocol's shape. The
   * shared error body when left out.
   */
  refuseHostError?(refusal: GatewayError): GatewayResponse
  /** The answer: a body to serialize (static routes) or a finished response. */
  answer(call: RouteCall<P>): unknown
  /**
   * How OpenAPI lists the route, when not as one path of its own: `'operations'`, one path per
   * operation of every source (the operation route); `'none'`, not at all (an extension's
   * endpoints, which speak their own protocol, and the explorer page, which is HTML).
   */
  openApi?: 'operations' | 'none'
}

/** A route with its query parameters compiled and its path split, ready to match. */
export interface CompiledRoute {
  definition: RouteDefinition
  segments: string[]
  methods: readonly Method[]
  parameters: CompiledParameter[]
  /** The route's template below the mount point, as observers name it (`/api/v1/kilder/{source}`): made once, the same string for every request. */
  template: string
}

/**
 * Defines a route of the gateway's own API. Generic over its query schemas, so `answer` gets
 * typed parameters.
 *
 * @example
 * defineRoute({
 *   name: 'search', path: '/sok/alle', summary: 'Cross-source search',
 *   query: { q: v.pipe(v.string(), v.minLength(1)) },
 *   staticMaxAgeSeconds: 60,
 *   answer: ({ params }) => ({ query: params.q, results: [] }),
 * })
 */
export function defineRoute<P extends ParameterSchemas>(definition: RouteDefinition<P>): RouteDefinition {
  return definition as unknown as RouteDefinition
}

export function compileRoute(definition: RouteDefinition): CompiledRoute {
  return {
    definition,
    segments: definition.path.split('/').filter((s) => s !== ''),
    methods: definition.methods ?? ['GET', 'HEAD'],
    parameters: compileParameters(definition.query ?? {}),
    template: definition.root === 'mount' ? definition.path : `${apiPath}${definition.path}`,
  }
}

/** The path parameters of a route that matches these segments, or undefined. */
export function matchSegments(route: CompiledRoute, segments: string[]): Record<string, string> | undefined {
  if (route.segments.length !== segments.length) return undefined
  const path: Record<string, string> = {}
  for (let i = 0; i < segments.length; i++) {
    const pattern = route.segments[i]!
    const segment = segments[i]!
    if (pattern.startsWith('{')) {
      if (segment === '') return undefined
      path[pattern.slice(1, -1)] = segment
    } else if (pattern !== segment) {
      return undefined
    }
  }
  return path
}

/** A URI template for a route: `{apiRoot}/kilder/{source}{?view}`, or `{mount}/{source}/mcp` for a route at the mount point. */
export function routeUrlTemplate(links: Links, route: CompiledRoute): string {
  const names = route.parameters.map((p) => p.name)
  const query = route.definition.queryTemplate ?? (names.length > 0 ? `{?${names.join(',')}}` : '')
  const root = route.definition.root === 'mount' ? links.mount : links.apiRoot
  return `${root}${route.definition.path}${query}`
}
