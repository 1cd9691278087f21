import type { Catalog } from '../compile/catalog.js'
import { defineRoute, type RouteDefinition } from '../routing/define-route.js'
import { errorResponse } from '../http/error-response.js'
import {
  extensionCall,
  extensionRoute,
  extensionSources,
  type ExtensionAnswer,
  type ExtensionHost,
  type GatewayExtension,
  type InvokedAnswer,
} from './gateway-extension.js'
import type { GatewayRequest, GatewayResponse } from '../http/gateway-request.js'
import type { Links } from '../http/links.js'
import { queryLengthOf, refuseLongQuery } from '../http/query-string.js'
import type { Router } from '../routing/router.js'
import type { RateLimiter } from '../limit/rate-limit.js'
import type { OperationAnswer } from '../operations/invoke-operation.js'
import type { OperationCall } from '../pipeline/operation-call.js'
import { sourcePathParameter } from '../operations/operation-routes.js'

function checkName(extension: GatewayExtension, i: number, all: readonly GatewayExtension[]): void {
  if (
    !/^[a-z][a-z0-9_-]*$/.test(extension.name) ||
    extension.name === 'api' ||
    all.findIndex((e) => e.name === extension.name) !== i
  ) {
    throw new TypeError(
      `An extension needs a name of its own made of a-z, 0-9, _ and - (got ${JSON.stringify(extension.name)})`,
    )
  }
}

/**
 * The routes of the extensions (MCP: `@allmenning/mcp`), at the mount point rather than under
 * `/api/v1`, where the public gateway has its MCP servers: `/{name}` for the gateway as a
 * whole, `/{source}/{name}` for each source. POST only: the router answers GET with 405, which
 * tells an MCP client there is no event stream to open. They describe themselves in their own
 * protocol, so OpenAPI (the JSON API's description) leaves them out; the API index lists them.
 * `answerOf` gives each extension's answer, which it makes once it is attached.
 */
export function extensionRoutes(
  catalog: Catalog,
  extensions: readonly GatewayExtension[],
  answerOf: (extension: GatewayExtension) => ExtensionAnswer,
): RouteDefinition[] {
  extensions.forEach(checkName)
  return extensions.flatMap((extension) => {
    const common = {
      methods: ['POST'] as const,
      root: 'mount' as const,
      countsItself: true,
      ...(extension.refuse ? { refuseHostError: extension.refuse.bind(extension) } : {}),
      answer: (call: Parameters<RouteDefinition['answer']>[0]) => answerOf(extension)(extensionCall(call)),
      openApi: 'none' as const,
      // An extension describes and calls every source's operations, or (below) its one source's.
      prepare: () => catalog.load('all'),
    }
    // Literal paths first: the router tries routes in table order, and `/{source}/{name}` would take them.
    const extra = (extension.paths ?? []).map((p) => {
      if (!/^[a-z][a-z0-9_]*$/.test(p.name) || !/^(\/[a-z0-9_-]+)+$/.test(p.path)) {
        throw new TypeError(
          `Extension ${extension.name}: an extra path needs a snake_case name and a path of a-z, 0-9, _ and - segments (got ${JSON.stringify(p)})`,
        )
      }
      return defineRoute({
        ...common,
        name: p.name,
        path: p.path,
        summary: p.summary,
        answer: (call: Parameters<RouteDefinition['answer']>[0]) =>
          answerOf(extension)({ ...extensionCall(call), path: p.name }),
      })
    })
    return [
      ...extra,
      defineRoute({ ...common, name: extension.name, path: `/${extension.name}`, summary: extension.summary.gateway }),
      defineRoute({
        ...common,
        name: `source_${extension.name}`,
        path: `/{source}/${extension.name}`,
        summary: extension.summary.source,
        pathParameters: { source: sourcePathParameter(catalog) },
        resolve: (path) => void catalog.source(path.source!),
        prepare: (path) => catalog.load([path.source!]),
      }),
    ]
  })
}

/** What attaching extensions takes from the gateway's context: its slice of it. */
export interface ExtensionContext {
  catalog: Catalog
  /** The longest query an in-process call takes, as its GET would, and `onError`, which hears an extension's failures. */
  resolved: { maxQueryLength: number; onError(error: unknown, kind: 'internal'): void }
}

/** What attaching extensions takes from the gateway besides its context. */
export interface ExtensionParts {
  version: string
  router: Router
  limiter: RateLimiter | undefined
  /** Links below the mount point alone, whatever the public ones look like. */
  internalLinks: Links
  linksFor(basePath: string | undefined): Links
  handle(request: GatewayRequest): Promise<GatewayResponse>
  /** The shared error body of a failure, reporting an unexpected one, as the gateway answers it. */
  errorAnswer(error: unknown, basePath: string | undefined): GatewayResponse
  /** Prepares an operation call as its route would (a 404 for an unknown one, a 400 for bad parameters), then answers it. */
  operations: {
    prepare(
      source: string,
      operation: string,
      params: Readonly<Record<string, unknown>>,
      links: Links,
      check?: () => void,
    ): OperationCall
    answer(call: OperationCall): OperationAnswer | Promise<OperationAnswer>
  }
}

/**
 * Attaches each extension, lending it the gateway's sources, routes and front door, and the
 * in-process call of an operation, counted as the GET it stands for. Returns each one's answer.
 */
export function attachExtensions(
  ctx: ExtensionContext,
  extensions: readonly GatewayExtension[],
  parts: ExtensionParts,
): Map<GatewayExtension, ExtensionAnswer> {
  // What every extension is told of the sources: made once, whatever the number of extensions.
  const sources = extensions.length > 0 ? extensionSources(ctx.catalog, parts.internalLinks) : []
  const errorValue = (error: unknown, basePath: string | undefined): InvokedAnswer => {
    const response = parts.errorAnswer(error, basePath)
    return { status: response.status, body: response.body!, value: JSON.parse(response.body!) }
  }
  const invoke: ExtensionHost['invoke'] = (request, target, params) => {
    const fail = (error: unknown) => errorValue(error, request.basePath)
    try {
      // In the order its GET is answered: the route, the query's length and the parameters first, then the rate limit.
      const max = ctx.resolved.maxQueryLength
      const call = parts.operations.prepare(
        target.source,
        target.operation,
        params,
        parts.linksFor(request.basePath),
        () => refuseLongQuery(queryLengthOf(params, max), max),
      )
      const verdict = parts.limiter?.check(request, false)
      if (verdict instanceof Promise)
        return verdict.then((v) => (v.refusal ? fail(v.refusal) : parts.operations.answer(call))).catch(fail)
      if (verdict?.refusal) return Promise.resolve(fail(verdict.refusal))
      // A cached answer is already there: no need to wait a turn for it.
      const found = parts.operations.answer(call)
      return found instanceof Promise ? found.catch(fail) : Promise.resolve(found)
    } catch (error) {
      return Promise.resolve(fail(error))
    }
  }
  const host: ExtensionHost = {
    version: parts.version,
    sources,
    routes: () => parts.router.routes.filter((route) => route.definition.root !== 'mount').map(extensionRoute),
    // Every call an extension makes goes through the front door, so whatever guards it guards them too.
    handle: parts.handle,
    invoke,
    count: (request) => {
      const verdict = parts.limiter?.check(request, false)
      return verdict === undefined ? undefined : Promise.resolve(verdict)
    },
    errorResponse,
    onError: (error) => ctx.resolved.onError(error, 'internal'),
  }
  return new Map(extensions.map((extension) => [extension, extension.attach(host)]))
}

/**
 * The gateway's extensions, attached once the route table they are part of exists: their
 * routes are declared first, and answer through what each one's `attach` returned.
 */
export function createAttachedExtensions(list: readonly GatewayExtension[]) {
  let answers = new Map<GatewayExtension, ExtensionAnswer>()
  return {
    list,
    answerOf(extension: GatewayExtension): ExtensionAnswer {
      const answer = answers.get(extension)
      if (!answer) throw new TypeError(`The extension ${extension.name} answers before it is attached`)
      return answer
    },
    attach(ctx: ExtensionContext, parts: ExtensionParts): void {
      answers = attachExtensions(ctx, list, parts)
    },
  }
}
