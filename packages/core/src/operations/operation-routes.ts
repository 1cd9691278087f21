import * as v from 'valibot'
import type { Catalog } from '../compile/catalog.js'
import { descriptorMaxAge, operationSchema, sourceDescriptor } from '../describe/descriptors.js'
import { defineRoute, type RouteDefinition } from '../routing/define-route.js'
import { callOperation, operationCacheKey, type OperationCallDeps } from '../pipeline/operation-call.js'

/** What the operations' routes are made from: their slice of the gateway's context. */
export interface OperationRoutesContext {
  catalog: Catalog
  /** The cached-answer pipeline an operation's call goes through. */
  pipeline: OperationCallDeps
}

/** The `{source}` path parameter: one of the gateway's sources. */
export const sourcePathParameter = (catalog: Catalog) => ({
  description: 'Source id, as discovery lists it.',
  schema: { type: 'string', enum: catalog.sources.map((s) => s.id) },
})
const operationPathParameter = {
  description: 'Operation name, as the source descriptor lists it.',
  schema: { type: 'string' },
}

/**
 * The sources and their operations: the list of sources, a source's descriptor, an
 * operation's call (through the cached-answer pipeline) and its schema.
 */
export function operationRoutes({ catalog, pipeline }: OperationRoutesContext): RouteDefinition[] {
  return [
    defineRoute({
      name: 'sources',
      path: '/kilder',
      summary: 'Every source, by name',
      description: 'The sources of this gateway, each with its operations by name and a link to its descriptor.',
      tag: 'Discovery',
      staticMaxAgeSeconds: descriptorMaxAge,
      answer: ({ links }) => ({
        sources: catalog.sources.map((s) => sourceDescriptor(catalog, s, links, 'names')),
        _links: { self: links.sources(), api_index: links.index() },
      }),
    }),
    defineRoute({
      name: 'source',
      path: '/kilder/{source}',
      summary: 'A source descriptor',
      description:
        'What a source serves and where its data comes from, with its operations, in as much detail as `view` asks for.',
      tag: 'Discovery',
      pathParameters: { source: sourcePathParameter(catalog) },
      query: {
        view: v.optional(
          v.pipe(
            v.picklist(['names', 'compact', 'full']),
            v.description('How much to show; the full descriptor by default.'),
          ),
          'full',
        ),
      },
      resolve: (path) => void catalog.source(path.source!),
      prepare: (path) => catalog.load([path.source!]),
      staticMaxAgeSeconds: descriptorMaxAge,
      answer: ({ path, params, links }) => sourceDescriptor(catalog, catalog.source(path.source!), links, params.view),
    }),
    defineRoute({
      name: 'operation',
      path: '/kilder/{source}/{operation}',
      summary: 'Call an operation of a source',
      pathParameters: { source: sourcePathParameter(catalog), operation: operationPathParameter },
      queryTemplate: '{?parameters*}',
      prepare: (path) => catalog.load([path.source!]),
      resolve: (path) => {
        const { operation } = catalog.operation(path.source!, path.operation!)
        return { parameters: operation.parameters, ignored: operation.ignoredParameters }
      },
      cacheKey: ({ path, params, links }) => {
        const { source, operation } = catalog.operation(path.source!, path.operation!)
        return operationCacheKey(source, operation, params, links)
      },
      answer: ({ path, params, links, key, observed }) => {
        const { source, operation } = catalog.operation(path.source!, path.operation!)
        return callOperation(pipeline, { source, operation, parameters: params, links, key, observed })
      },
      openApi: 'operations',
    }),
    defineRoute({
      name: 'operation_schema',
      path: '/kilder/{source}/{operation}/schema',
      summary: 'An operation descriptor: parameters with types, defaults and bounds; output fields',
      description:
        'How to call an operation and what it answers: each parameter with its type, default and bounds, and the fields of its data.',
      tag: 'Discovery',
      pathParameters: { source: sourcePathParameter(catalog), operation: operationPathParameter },
      prepare: (path) => catalog.load([path.source!]),
      resolve: (path) => void catalog.operation(path.source!, path.operation!),
      staticMaxAgeSeconds: descriptorMaxAge,
      answer: ({ path, links }) => {
        const { source, operation } = catalog.operation(path.source!, path.operation!)
        return operationSchema(source, operation, links)
      },
    }),
  ]
}
