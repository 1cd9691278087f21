import type { Catalog } from '../compile/catalog.js'
import type { JsonSchema } from '../compile/json-schema.js'
import { getUrlTemplate, operationDescription } from '../describe/descriptors.js'
import type { CompiledRoute, RouteCall } from '../routing/define-route.js'
import type { GatewayError } from '../http/gateway-error.js'
import type { GatewayRequest, GatewayResponse } from '../http/gateway-request.js'
import { apiPath, type Links } from '../http/links.js'

/**
 * A protocol served beside the JSON API by a package of its own (MCP, in `@allmenning/mcp`),
 * so the core and a bundle that leaves it out carry none of its code. It answers POSTs at
 * two paths under the mount point: `/{name}` for the gateway as a whole and `/{source}/{name}`
 * for each source it serves. The routes themselves are declared in the route table, like
 * every other; the extension only answers them.
 *
 * @example
 * import { mcpServers } from '@allmenning/mcp'
 * createGateway({ sources, extensions: [mcpServers()] })
 */
export interface GatewayExtension {
  /** The last path segment (`mcp`), also the route names (`mcp`, `source_mcp`) in the API index. */
  name: string
  /** What the two routes serve, for the API index: the gateway-wide one and a source's. */
  summary: { gateway: string; source: string }
  /**
   * Fixed paths at the mount point it answers besides its two, such as `/allemannsdata/mcp`
   * where another gateway's clients look for it: each is a route of its own, by `name`, tried
   * before `/{source}/{name}`, and its calls carry that name in `ExtensionCall.path`.
   */
  paths?: { name: string; path: string; summary: string }[]
  /** Called once by `createGateway`; the answer it returns serves every POST to the two paths. */
  attach(host: ExtensionHost): ExtensionAnswer
  /**
   * Answers, in the protocol's own shape, a request to one of its paths that the host app
   * refused before the gateway saw it: a body its parser could not read (400), one too large
   * (413), in a media type or encoding it does not take (415), a failure of its own (500).
   * Without it, such a request gets the shared error body.
   */
  refuse?(refusal: GatewayError): GatewayResponse
}

/** Answers one POST to `/{name}` (no source) or `/{source}/{name}`. */
export type ExtensionAnswer = (call: ExtensionCall) => Promise<GatewayResponse>

/** One POST to an extension's path. */
export interface ExtensionCall {
  request: GatewayRequest
  links: Links
  /** The source of `/{source}/{name}`, checked to be one the gateway serves; none at `/{name}`. */
  sourceId: string | undefined
  /** The name of the extra path called, one of the extension's `paths`; none at its own two. */
  path?: string
}

/**
 * An answer called in process: the status its GET would have, its body as a value (the
 * envelope, or the shared error body) and as the JSON the GET would send. The value is shared
 * with every caller that gets the same cached answer: read-only.
 */
export interface InvokedAnswer {
  status: number
  value: unknown
  body: string
}

/** A parameter as an extension sees it: its name, JSON Schema and whether it is required. */
export interface ExtensionParameter {
  name: string
  jsonSchema: JsonSchema
  required: boolean
}

/** A route of the JSON API, for an extension that calls it. */
export interface ExtensionRoute {
  name: string
  /** The path below the mount point, with `{name}` path parameters: `/api/v1/kilder/{source}`. */
  path: string
  pathParameters: Record<string, { description: string; schema: JsonSchema }>
  parameters: ExtensionParameter[]
}

/** An operation, for an extension that offers it. */
export interface ExtensionOperation {
  name: string
  /** The operation's description, with its shape note. */
  description: string
  parameters: ExtensionParameter[]
  /** The path its GET is asked for below the mount point (`/api/v1/kilder/statnett/get_physical_flow`). */
  path: string
  /** Its public GET URL template under the given links (`…/get_physical_flow{?area,limit,offset}`). */
  getUrlTemplate(links: Links): string
}

/** A source, for an extension that serves it. */
export interface ExtensionSource {
  id: string
  name: string
  description: string
  operations: ExtensionOperation[]
}

/** What the gateway lends an extension: its sources and routes to describe, and its own front door to call. */
export interface ExtensionHost {
  /** The gateway's version (`0.1.0`). */
  version: string
  sources: ExtensionSource[]
  /** The JSON API's routes, by name (`search`, `source`, `operation`, ...). */
  routes(): ExtensionRoute[]
  /** The gateway's own `handle`: whatever guards a GET (validation, cache, rate limits) guards a call through it too; the host's `onResponse` does not see it (its answer is not a client's). */
  handle(request: GatewayRequest): Promise<GatewayResponse>
  /**
   * Calls an operation in process for the client that sent `request`, as the GET of
   * `path` with those parameters would: the same validation (from the values, `"5"` and `5`
   * alike), the same cache key and single flight, counted against the client's rate limit
   * as that GET. Never rejects: a failure is the shared error body the GET would answer with.
   *
   * @example
   * const answer = await host.invoke(request, { source: 'statnett', operation: 'get_physical_flow' }, { area: 'NO1' })
   * answer.status // 200; answer.value is the envelope, answer.body its JSON
   */
  invoke(
    request: GatewayRequest,
    target: { source: string; operation: string },
    params: Readonly<Record<string, unknown>>,
  ): Promise<InvokedAnswer>
  /**
   * Counts a POST against the client's rate limit once, when limits are on: for a request
   * that sends nothing through `handle`, which counts itself. A refusal is the 429 to answer.
   */
  count(request: GatewayRequest): Promise<{ headers: Record<string, string>; refusal?: GatewayError }> | undefined
  /** The shared error body of an error, as the JSON API answers it. */
  errorResponse(error: unknown, links: Links): GatewayResponse
  /** Hears a failure inside the extension itself. */
  onError(error: unknown): void
}

const parameterView = (p: { name: string; jsonSchema: JsonSchema; required: boolean }): ExtensionParameter => ({
  name: p.name,
  // Read when the extension describes the parameter, not when the gateway is made.
  get jsonSchema() {
    return p.jsonSchema
  },
  required: p.required,
})

/** The sources as an extension sees them, from the source catalog. */
export function extensionSources(catalog: Catalog, internal: Links): ExtensionSource[] {
  return catalog.sources.map((source) => {
    let operations: ExtensionOperation[] | undefined
    return {
      id: source.id,
      name: source.definition.name,
      description: source.definition.description,
      // Made when the extension first reads them, so a source compiled on first use stays uncompiled until then.
      get operations() {
        return (operations ??= [...source.operations.values()].map((operation) => ({
          name: operation.name,
          description: operationDescription(operation),
          parameters: operation.parameters.map(parameterView),
          path: internal.operation(source.id, operation.name),
          getUrlTemplate: (links: Links) => getUrlTemplate(links, source.id, operation),
        })))
      },
    }
  })
}

/** A compiled route of the JSON API as an extension sees it. */
export function extensionRoute(route: CompiledRoute): ExtensionRoute {
  return {
    name: route.definition.name,
    path: `${apiPath}${route.definition.path}`,
    pathParameters: route.definition.pathParameters ?? {},
    parameters: route.parameters.map(parameterView),
  }
}

/** The call an extension's route hands on. */
export function extensionCall(call: RouteCall): ExtensionCall {
  return { request: call.request, links: call.links, sourceId: call.path.source }
}
