import * as v from 'valibot'
import { apiIndex } from './describe/api-index.js'
import type { createExplorerResponses } from './describe/explorer.js'
import { operationSchema, sourceDescriptor } from './describe/descriptors.js'
import { feedbackJsonSchema } from './describe/feedback.js'
import { openApiDocument, operationOpenApiPaths } from './describe/openapi.js'
import { searchCacheKey } from './search/cross-source-search.js'
import { searchQuery } from './search/search-query.js'
import { coordinateSchemas, parseCoordinates, placeBundleQuery, placeSearchQuery, type PlaceBundleQuery } from './places/place-query.js'
import type { Catalog } from './compile/catalog.js'
import { defineRoute, type RouteCall, type RouteDefinition } from './http/define-route.js'
import type { GatewayResponse } from './http/gateway-request.js'
import type { Links } from './http/links.js'
import { extensionCall, type ExtensionAnswer, type GatewayExtension } from './http/gateway-extension.js'
import { operationCacheKey } from './pipeline/operation-call.js'

/** What the routes answer with: the gateway's parts, handed over by `createGateway`. */
export interface RouteParts {
  catalog: Catalog
  /** The `wiki` link of the gateway as a whole. */
  documentation(links: Links): string
  /** Answers one operation call through the pipeline (cache, single flight, stale answers). */
  callOperation(call: RouteCall): GatewayResponse | Promise<GatewayResponse>
  receiveFeedback(call: RouteCall): Promise<GatewayResponse>
  /** Answers a cross-source search through the cache. */
  search(call: RouteCall<typeof searchQuery>): GatewayResponse | Promise<GatewayResponse>
  /** Answers a place search through the cache. */
  placeSearch(call: RouteCall<typeof placeSearchQuery>): GatewayResponse | Promise<GatewayResponse>
  /** Answers a place bundle through the cache. */
  placeBundle(call: RouteCall<PlaceBundleQuery>): GatewayResponse | Promise<GatewayResponse>
  /** The whole table, for the answers that describe it (API index, OpenAPI). */
  routes(): RouteDefinition[]
  /** The API explorer's page and assets, when the gateway has one. */
  explorer?: { name: string } & ReturnType<typeof createExplorerResponses>
  /** Protocols served beside the JSON API (MCP), each with the answer it made when attached. */
  extensions?: { extension: GatewayExtension; answer: ExtensionAnswer }[]
}

/** How long descriptors, the index and OpenAPI may be cached: they change only with the configuration. */
const descriptorMaxAge = 300

const sourcePath = (catalog: Catalog) => ({
  description: 'Source id, as discovery lists it.',
  schema: { type: 'string', enum: catalog.sources.map((s) => s.id) },
})
const operationPath = { description: 'Operation name, as the source descriptor lists it.', schema: { type: 'string' } }

/**
 * The API explorer: a page for people that renders the OpenAPI document and sends requests
 * from the browser, with the files it loads. HTML, not part of the API, so not in OpenAPI.
 */
function explorerRoute(explorer: NonNullable<RouteParts['explorer']>): RouteDefinition {
  const [first, ...rest] = explorer.names
  const names = first === undefined ? v.never() : v.picklist([first, ...rest])
  return defineRoute({
    name: 'explorer',
    path: '/docs',
    summary: `The API explorer (${explorer.name}): this API's OpenAPI document to read and try, in a browser`,
    query: { asset: v.optional(v.pipe(names, v.description('A file the page loads; the page itself when left out.'))) },
    answer: ({ params, links }) => (params.asset === undefined ? explorer.page(links) : explorer.asset(params.asset)),
    openApiPaths: () => ({}),
  })
}

/**
 * The gateway's route table: one record per route, in matching order. The router, the
 * method check, parameter validation, the OpenAPI paths and the API index are derived from it;
 * a new endpoint is one record here and its answer.
 */
export function createRoutes(parts: RouteParts): RouteDefinition[] {
  const { catalog } = parts
  return [
    ...apiRoutes(parts),
    ...(parts.extensions ?? []).flatMap(({ extension, answer }) => extensionRoutes(catalog, extension, answer)),
  ]
}

/**
 * The routes of an extension (MCP: `@allmenning/mcp`), at the mount point rather than under
 * `/api/v1`, where the public gateway has its MCP servers: `/{name}` for the gateway as a
 * whole, `/{source}/{name}` for each source. POST only: the router answers GET with 405, which
 * tells an MCP client there is no event stream to open. They describe themselves in their own
 * protocol, so OpenAPI (the JSON API's description) leaves them out; the API index lists them.
 */
function extensionRoutes(catalog: Catalog, extension: GatewayExtension, answer: ExtensionAnswer): RouteDefinition[] {
  return [
    defineRoute({
      name: extension.name,
      root: 'mount',
      path: `/${extension.name}`,
      summary: extension.summary.gateway,
      methods: ['POST'],
      countsItself: true,
      ...(extension.refuse ? { refuseHostError: extension.refuse.bind(extension) } : {}),
      answer: (call) => answer(extensionCall(call)),
      openApiPaths: () => ({}),
    }),
    defineRoute({
      name: `source_${extension.name}`,
      root: 'mount',
      path: `/{source}/${extension.name}`,
      summary: extension.summary.source,
      methods: ['POST'],
      pathParameters: { source: sourcePath(catalog) },
      resolve: (path) => void catalog.source(path.source!),
      countsItself: true,
      ...(extension.refuse ? { refuseHostError: extension.refuse.bind(extension) } : {}),
      answer: (call) => answer(extensionCall(call)),
      openApiPaths: () => ({}),
    }),
  ]
}

/** The JSON API under `/api/v1`. */
function apiRoutes(parts: RouteParts): RouteDefinition[] {
  const { catalog } = parts
  return [
    defineRoute({
      name: 'api_index',
      path: '/',
      summary: 'The API index: version, endpoints and sources',
      staticMaxAgeSeconds: descriptorMaxAge,
      answer: ({ links }) => apiIndex(catalog, links, parts.routes(), parts.documentation(links)),
    }),
    defineRoute({
      name: 'openapi',
      path: '/openapi.json',
      summary: 'This OpenAPI document',
      staticMaxAgeSeconds: descriptorMaxAge,
      answer: ({ links }) => openApiDocument(catalog, links, parts.routes()),
    }),
    ...(parts.explorer ? [explorerRoute(parts.explorer)] : []),
    defineRoute({
      name: 'search',
      path: '/sok/alle',
      summary: 'Cross-source search: sources by name and topic, entities (companies, airports, ...) by name or number',
      query: searchQuery,
      cacheKey: ({ params, links }) => searchCacheKey(params, links),
      expensive: true,
      answer: (call) => parts.search(call),
    }),
    defineRoute({
      name: 'place_search',
      path: '/steder/sok',
      summary: 'Places by address or place name, each with coordinates and a link to its data bundle',
      query: placeSearchQuery,
      cacheKey: ({ params, links }) => `allmenning:v1:places:search:${JSON.stringify([params.q.replace(/\s+/g, ' '), params.limit])}:${links.root}`,
      expensive: true,
      answer: (call) => parts.placeSearch(call),
    }),
    defineRoute({
      name: 'place',
      path: '/steder/{lat}/{lon}',
      summary: 'The data bundle of a WGS84 point: one section, or the fields asked for',
      pathParameters: coordinateSchemas,
      query: placeBundleQuery(catalog.places),
      resolve: (path) => void parseCoordinates(path),
      cacheKey: ({ path, params, links }) => {
        const { lat, lon } = parseCoordinates(path)
        return `allmenning:v1:places:bundle:${JSON.stringify([lat, lon, params.section, params.fields ?? null])}:${links.root}`
      },
      expensive: true,
      answer: (call) => parts.placeBundle(call),
    }),
    defineRoute({
      name: 'sources',
      path: '/kilder',
      summary: 'Every source, by name',
      staticMaxAgeSeconds: descriptorMaxAge,
      answer: ({ links }) => ({
        sources: catalog.sources.map((s) => sourceDescriptor(catalog, s, links, 'names')),
        _links: { self: links.api('/kilder'), api_index: `${links.root}/` },
      }),
    }),
    defineRoute({
      name: 'source',
      path: '/kilder/{source}',
      summary: 'A source descriptor',
      pathParameters: { source: sourcePath(catalog) },
      query: {
        view: v.optional(v.pipe(v.picklist(['names', 'compact', 'full']), v.description('How much to show; the full descriptor by default.')), 'full'),
      },
      resolve: (path) => void catalog.source(path.source!),
      staticMaxAgeSeconds: descriptorMaxAge,
      answer: ({ path, params, links }) => sourceDescriptor(catalog, catalog.source(path.source!), links, params.view),
    }),
    defineRoute({
      name: 'operation',
      path: '/kilder/{source}/{operation}',
      summary: 'Call an operation of a source',
      pathParameters: { source: sourcePath(catalog), operation: operationPath },
      queryTemplate: '{?parameters*}',
      resolve: (path) => {
        const { operation } = catalog.operation(path.source!, path.operation!)
        return { parameters: operation.parameters, ignored: operation.ignoredParameters }
      },
      cacheKey: ({ path, params, links }) => {
        const { source, operation } = catalog.operation(path.source!, path.operation!)
        return operationCacheKey(source, operation, params, links)
      },
      answer: (call) => parts.callOperation(call),
      openApiPaths: (links) => operationOpenApiPaths(catalog, links),
    }),
    defineRoute({
      name: 'operation_schema',
      path: '/kilder/{source}/{operation}/schema',
      summary: 'An operation descriptor: parameters with types, defaults and bounds; output fields',
      pathParameters: { source: sourcePath(catalog), operation: operationPath },
      resolve: (path) => void catalog.operation(path.source!, path.operation!),
      staticMaxAgeSeconds: descriptorMaxAge,
      answer: ({ path, links }) => {
        const { source, operation } = catalog.operation(path.source!, path.operation!)
        return operationSchema(source, operation, links)
      },
    }),
    defineRoute({
      name: 'feedback',
      path: '/feedback',
      summary: 'Send feedback about the gateway, a source or an operation (POST); GET tells how',
      methods: ['GET', 'HEAD', 'POST'],
      requestBody: feedbackJsonSchema,
      staticMaxAgeSeconds: descriptorMaxAge,
      answer: (call) =>
        call.method === 'POST'
          ? parts.receiveFeedback(call)
          : {
              method: 'POST',
              url: call.links.api('/feedback'),
              content_type: 'application/json',
              body_schema: feedbackJsonSchema,
              answer: '202 Accepted with the feedback as received',
              _links: { self: call.links.api('/feedback'), api_index: `${call.links.root}/` },
            },
    }),
  ]
}
