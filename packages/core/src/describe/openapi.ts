import { apiVersion } from './api-index.js'
import type { Catalog } from '../compile/catalog.js'
import type { CompiledParameter } from '../compile/compile-parameters.js'
import type { JsonSchema } from '../compile/json-schema.js'
import type { Links } from '../http/links.js'
import { compileRoute, type CompiledRoute, type RouteDefinition } from '../routing/define-route.js'
import { apiPath } from '../http/links.js'
import { operationDescription } from './descriptors.js'
import { gatewayTags } from '../routing/openapi-tags.js'

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const errorRef = (name: string) => ({ $ref: `#/components/responses/${name}` })

const errorStatuses: Record<string, string> = {
  '400': 'BadRequest',
  '404': 'NotFound',
  '429': 'TooManyRequests',
  '500': 'InternalError',
  '502': 'BadGateway',
}

function queryParameter(p: CompiledParameter) {
  return {
    name: p.name,
    in: 'query',
    required: p.required,
    ...(p.description ? { description: p.description } : {}),
    schema: p.jsonSchema,
  }
}

function jsonContent(schema: JsonSchema) {
  return { 'application/json': { schema } }
}

function get(summary: string, schema: JsonSchema, parameters: unknown[] = [], cacheable = true) {
  return {
    summary,
    parameters,
    responses: {
      '200': {
        description: 'Success',
        ...(cacheable
          ? {
              headers: {
                ETag: { $ref: '#/components/headers/ETag' },
                'Cache-Control': { $ref: '#/components/headers/CacheControl' },
              },
            }
          : {}),
        content: jsonContent(schema),
      },
      ...(cacheable ? { '304': { description: 'Not modified: the If-None-Match tag matches' } } : {}),
      ...Object.fromEntries(Object.entries(errorStatuses).map(([status, name]) => [status, errorRef(name)])),
    },
  }
}

const looseObject: JsonSchema = { type: 'object' }

function components() {
  const problem = {
    type: 'object',
    required: ['parameter', 'problem', 'rule'],
    properties: { parameter: { type: 'string' }, problem: { type: 'string' }, rule: { type: 'string' } },
  }
  const error = {
    type: 'object',
    required: ['error', '_meta', '_links'],
    properties: {
      error: {
        type: 'object',
        required: ['status', 'code', 'message', 'details'],
        properties: {
          status: { type: 'integer' },
          code: { type: 'string' },
          message: { type: 'string' },
          details: { type: 'array', items: problem },
          upstream: { type: 'string', description: 'Id of the upstream that failed (502 only).' },
        },
      },
      _meta: {
        type: 'object',
        required: ['retrieved_at', 'language'],
        properties: { retrieved_at: { type: 'string', format: 'date-time' }, language: { type: 'string' } },
      },
      _links: { type: 'object', additionalProperties: { type: 'string' } },
    },
  }
  const sourceSummary = {
    type: 'object',
    required: ['id', 'name', 'description', 'documentation', 'cache_ttl_seconds'],
    properties: {
      id: { type: 'string' },
      name: { type: 'string' },
      description: { type: 'string' },
      documentation: { type: 'string', format: 'uri' },
      cache_ttl_seconds: { type: 'integer' },
    },
  }
  const meta = {
    type: 'object',
    required: ['retrieved_at', 'language', 'content_languages', 'sources'],
    properties: {
      retrieved_at: { type: 'string', format: 'date-time' },
      language: { type: 'string' },
      content_languages: { type: 'array', items: { type: 'string' } },
      sources: { type: 'array', items: sourceSummary },
      stale: { type: 'boolean', description: 'True when the upstream failed and an older cached answer is served.' },
      stale_reason: { type: 'string' },
      stale_since: { type: 'string', format: 'date-time' },
      pagination: {
        type: 'object',
        required: ['limit', 'offset', 'returned', 'has_more_results'],
        properties: {
          limit: { type: 'integer' },
          offset: { type: 'integer' },
          returned: { type: 'integer' },
          has_more_results: { type: 'boolean' },
          next_offset: {
            type: ['integer', 'null'],
            description: 'The offset of the next page; null on the last page.',
          },
          total: { type: 'integer' },
        },
      },
      capped: {
        type: 'object',
        description:
          'Set when the upstream gives fewer items than asked for: it answers at most `cap`, whatever `limit` says.',
        required: ['cap', 'requested_limit', 'reason'],
        properties: { cap: { type: 'integer' }, requested_limit: { type: 'integer' }, reason: { type: 'string' } },
      },
    },
  }
  const provenanceItem = {
    type: 'object',
    required: ['source', 'source_api'],
    properties: {
      source: { type: 'string' },
      source_api: { type: 'string', format: 'uri' },
      derived_from: { type: 'string' },
      description: { type: 'string' },
    },
  }
  const entity = {
    type: 'object',
    required: ['type', 'id', 'source', '_links'],
    properties: {
      type: { type: 'string' },
      id: { type: 'string' },
      name: { type: 'string' },
      source: { type: 'string' },
      _links: { type: 'object', properties: { self: { type: 'string' } } },
    },
  }
  const errorResponse = (description: string) => ({ description, content: jsonContent(ref('Error')) })
  return {
    schemas: {
      Error: error,
      Meta: meta,
      Entity: entity,
      Provenance: {
        type: 'object',
        required: ['data', 'entities'],
        properties: { data: provenanceItem, entities: provenanceItem, _raw_values: provenanceItem },
      },
      EnvelopeLinks: {
        type: 'object',
        required: ['self', 'source', 'wiki'],
        properties: { self: { type: 'string' }, source: { type: 'string' }, wiki: { type: 'string', format: 'uri' } },
      },
    },
    responses: {
      BadRequest: errorResponse(
        'A parameter is invalid: missing, unknown, repeated, of the wrong type or out of bounds.',
      ),
      NotFound: errorResponse('No such source, operation, route or entity.'),
      TooManyRequests: errorResponse('The request is rate limited.'),
      InternalError: errorResponse('The gateway failed unexpectedly.'),
      BadGateway: errorResponse('The upstream data source is unavailable, too slow, or answered something unusable.'),
    },
    headers: {
      ETag: { description: 'Weak validator for conditional GET with If-None-Match.', schema: { type: 'string' } },
      CacheControl: { description: 'How long the answer may be cached.', schema: { type: 'string' } },
    },
  }
}

/** The OpenAPI path items of every operation of every source: parameters and the envelope with the JSON Schema of `data`. */
export function operationOpenApiPaths(catalog: Catalog, links: Links): Record<string, unknown> {
  const paths: Record<string, unknown> = {}
  for (const source of catalog.sources) {
    for (const operation of source.operations.values()) {
      const parameterProperties = Object.fromEntries(operation.parameters.map((p) => [p.name, p.jsonSchema]))
      const envelope = {
        type: 'object',
        required: ['source', 'operation', 'parameters', 'data', 'entities', '_meta', '_provenance', '_links'],
        properties: {
          source: { const: source.id },
          operation: { const: operation.name },
          parameters: { type: 'object', properties: parameterProperties, additionalProperties: false },
          data: operation.outputSchema,
          entities: { type: 'array', items: ref('Entity') },
          _meta: ref('Meta'),
          _provenance: ref('Provenance'),
          _raw_values: { type: 'object' },
          _links: ref('EnvelopeLinks'),
        },
      }
      const description = operationDescription(operation)
      paths[links.operation(source.id, operation.name).slice(links.mount.length)] = {
        get: {
          ...get(operation.definition.description, envelope, operation.parameters.map(queryParameter)),
          operationId: `${source.id}__${operation.name}`,
          tags: [source.id],
          description: `${description}\n\nSignature: \`${operation.signature}\``,
        },
      }
    }
  }
  return paths
}

/** The path key of a route: `/api/v1/` (the index) without its trailing slash, which the router ignores. */
function openApiPathKey(definition: RouteDefinition): string {
  return definition.path === '/' ? apiPath : `${apiPath}${definition.path}`
}

function routePaths(route: CompiledRoute, catalog: Catalog, links: Links): Record<string, unknown> {
  const definition = route.definition
  if (definition.openApi === 'operations') return operationOpenApiPaths(catalog, links)
  if (definition.openApi === 'none') return {}
  const pathParameters = Object.entries(definition.pathParameters ?? {}).map(([name, p]) => ({
    name,
    in: 'path',
    required: true,
    description: p.description,
    schema: p.schema,
  }))
  const cacheable = definition.staticMaxAgeSeconds !== undefined
  // Left out when missing rather than made up, so the lint of the document names the route.
  const described = {
    ...(definition.tag ? { tags: [definition.tag] } : {}),
    ...(definition.description ? { description: definition.description } : {}),
  }
  const item: Record<string, unknown> = {
    get: {
      ...get(
        definition.summary,
        definition.response ?? looseObject,
        [...pathParameters, ...route.parameters.map(queryParameter)],
        cacheable,
      ),
      operationId: definition.name,
      ...described,
    },
  }
  if (route.methods.includes('POST')) {
    item.post = {
      summary: definition.summary,
      operationId: `${definition.name}_post`,
      ...described,
      requestBody: { required: true, content: jsonContent(definition.requestBody ?? looseObject) },
      responses: {
        '202': { description: 'Accepted', content: jsonContent(looseObject) },
        '415': { description: 'The body is not JSON', content: jsonContent(ref('Error')) },
        ...Object.fromEntries(Object.entries(errorStatuses).map(([status, name]) => [status, errorRef(name)])),
      },
    }
  }
  return { [openApiPathKey(definition)]: item }
}

/** The tags the document's operations use, the gateway's own first, then one per source. */
function tags(catalog: Catalog, routes: readonly RouteDefinition[]) {
  const used = new Set(routes.filter((r) => r.openApi === undefined).map((r) => r.tag))
  return [
    ...Object.entries(gatewayTags)
      .filter(([name]) => used.has(name as keyof typeof gatewayTags))
      .map(([name, description]) => ({ name, description })),
    ...catalog.sources.map((s) => ({ name: s.id, description: s.definition.description })),
  ]
}

/**
 * How to reach the operators: this gateway's feedback endpoint. Its URL only when absolute
 * (`publicBaseUrl` set), as OpenAPI wants one.
 */
function contact(links: Links) {
  const url = links.to('feedback')
  return { name: `The operators of this gateway, through POST ${url}`, ...(/^https?:\/\//.test(url) ? { url } : {}) }
}

/**
 * The OpenAPI 3.1.0 document, generated from the route table and the source definitions: one
 * path per route, and one per operation with its query parameters and the JSON Schema of its
 * `data`.
 *
 * @example
 * const doc = openApiDocument(catalog, links, routes) // doc.openapi === '3.1.0'
 */
export function openApiDocument(catalog: Catalog, links: Links, routes: readonly RouteDefinition[]) {
  const server = links.apiRoot.slice(0, -apiPath.length) || '/'
  const paths = Object.assign({}, ...routes.map((route) => routePaths(compileRoute(route), catalog, links)))
  return {
    openapi: '3.1.0',
    info: {
      title: 'Allmenning public-data gateway',
      version: apiVersion,
      description:
        'Read-only JSON gateway in front of Norwegian public data sources. Generated from the source definitions.',
      contact: contact(links),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: server }],
    // Open to all: no operation needs credentials, which an empty list of requirements says.
    security: [],
    tags: tags(catalog, routes),
    paths,
    components: components(),
  }
}
