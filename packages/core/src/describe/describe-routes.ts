import * as v from 'valibot'
import { defineRoute, type RouteDefinition } from '../routing/define-route.js'
import { openApiPath } from '../http/links.js'
import type { Catalog } from '../compile/catalog.js'
import type { Links } from '../http/links.js'
import type { Explorer } from './explorer.js'
import { apiIndex } from './api-index.js'
import { descriptorMaxAge } from './descriptors.js'
import { createExplorerResponses } from './explorer.js'

/** The gateway's options the routes that describe the API read. */
export interface DescribeOptions {
  explorer?: Explorer
  publicBaseUrl?: string
  documentationUrl?: string
}

/**
 * What the routes that describe the API are made from: their slice of the gateway's context
 * (`GatewayContext`, which holds every feature's).
 */
export interface DescribeContext {
  catalog: Catalog
  options: DescribeOptions
  /** The `wiki` link of the gateway as a whole (see {@link documentationLink}). */
  documentation(links: Links): string
  /** The whole route table, for the answers that describe it (API index, OpenAPI). */
  routes(): readonly RouteDefinition[]
}

/**
 * The API explorer: a page for people that renders the OpenAPI document and sends requests
 * from the browser, with the files it loads. HTML, not part of the API, so not in OpenAPI.
 */
function explorerRoute({ options }: DescribeContext): RouteDefinition[] {
  if (!options.explorer) return []
  const explorer = createExplorerResponses(options.explorer, { publicBaseUrl: options.publicBaseUrl })
  const [first, ...rest] = explorer.names
  const names = first === undefined ? v.never() : v.picklist([first, ...rest])
  return [
    defineRoute({
      name: 'explorer',
      path: '/docs',
      summary: `The API explorer (${options.explorer.name}): this API's OpenAPI document to read and try, in a browser`,
      query: {
        asset: v.optional(v.pipe(names, v.description('A file the page loads; the page itself when left out.'))),
      },
      answer: ({ params, links }) => (params.asset === undefined ? explorer.page(links) : explorer.asset(params.asset)),
      openApi: 'none',
    }),
  ]
}

/** The routes that describe the API itself: its index, its OpenAPI document and the explorer. */
export function describeRoutes(ctx: DescribeContext): RouteDefinition[] {
  const { catalog } = ctx
  let writer: typeof import('./openapi.js') | undefined
  const loadWriter = async () => {
    const [loaded] = await Promise.all([import('./openapi.js'), catalog.load('all')])
    writer = loaded
  }
  return [
    defineRoute({
      name: 'api_index',
      path: '/',
      summary: 'The API index: version, endpoints and sources',
      description:
        'The entry point: the API version, a link or URI template for every endpoint, the sections and fields of the place bundle, and every source with its operations. Answered at `/api/v1/` as the links give it, and at `/api/v1` alike.',
      tag: 'Discovery',
      staticMaxAgeSeconds: descriptorMaxAge,
      answer: ({ links }) => apiIndex(catalog, links, ctx.routes(), ctx.documentation(links)),
    }),
    defineRoute({
      name: 'openapi',
      path: openApiPath,
      summary: 'This OpenAPI document',
      description:
        'The OpenAPI 3.1 description of this gateway, generated from its routes and its sources: one path per operation, with its query parameters and the JSON Schema of its data.',
      tag: 'Discovery',
      staticMaxAgeSeconds: descriptorMaxAge,
      // The document's writer is loaded with the sources' operations, by the first request for
      // it: a gateway that is never asked (a Lambda cold start, say) neither loads nor parses it.
      prepare: () => (writer ? catalog.load('all') : loadWriter()),
      answer: ({ links }) => writer!.openApiDocument(catalog, links, ctx.routes()),
    }),
    ...explorerRoute(ctx),
  ]
}

/** The `wiki` link of the gateway as a whole: the configured URL, else the explorer, else the OpenAPI document. */
export function documentationLink(options: DescribeOptions) {
  return (links: Links): string => options.documentationUrl ?? links.to(options.explorer ? 'explorer' : 'openapi')
}
