import * as v from 'valibot'
import type { Catalog } from '../compile/catalog.js'
import { compileParameters, type CompiledParameter } from '../compile/compile-parameters.js'
import { GatewayError } from './gateway-error.js'

/** A matched route: what it is, which methods it takes, and its query parameters. */
export type RouteMatch =
  | { name: 'index' }
  | { name: 'openapi' }
  | { name: 'search' }
  | { name: 'sources' }
  | { name: 'source'; source: string }
  | { name: 'operation'; source: string; operation: string }
  | { name: 'schema'; source: string; operation: string }
  | { name: 'feedback' }

export const routeMethods: Record<RouteMatch['name'], string[]> = {
  index: ['GET', 'HEAD'],
  openapi: ['GET', 'HEAD'],
  search: ['GET', 'HEAD'],
  sources: ['GET', 'HEAD'],
  source: ['GET', 'HEAD'],
  operation: ['GET', 'HEAD'],
  schema: ['GET', 'HEAD'],
  feedback: ['GET', 'HEAD', 'POST'],
}

/** Query parameters of the routes that are not operations. */
export const routeParameters: Record<Exclude<RouteMatch['name'], 'operation'>, CompiledParameter[]> = {
  index: [],
  openapi: [],
  sources: [],
  schema: [],
  feedback: [],
  source: compileParameters({
    view: v.optional(v.pipe(v.picklist(['names', 'compact', 'full']), v.description('How much to show; the full descriptor by default.')), 'full'),
  }),
  search: compileParameters({
    q: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200), v.description('The search text.')),
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10), v.description('Maximum total results.')), 5),
    sources: v.optional(v.pipe(v.string(), v.maxLength(500), v.description('Comma-separated source ids to search.'))),
    mode: v.optional(v.picklist(['auto', 'source_discovery', 'entities', 'all']), 'auto'),
  }),
}

function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment
  try {
    return decodeURIComponent(segment)
  } catch {
    throw new GatewayError(400, 'invalid_path_encoding', 'The path has malformed percent-encoding', {
      details: [{ parameter: 'path', problem: 'must be valid UTF-8 percent-encoding', rule: 'encoding' }],
    })
  }
}

const notFound = (message: string) => new GatewayError(404, 'route_not_found', message)

/**
 * Matches a mount-relative path to a route. Segments are percent-decoded one by one, so an
 * encoded `/` inside a source id stays part of the id (and is then simply not found).
 *
 * @example
 * matchRoute('/api/v1/kilder/statnett/get_physical_flow', catalog) // { name: 'operation', ... }
 */
export function matchRoute(path: string, catalog: Catalog): RouteMatch {
  const raw = path.split('/').slice(1)
  if (raw.length > 1 && raw[raw.length - 1] === '') raw.pop()
  const segments = raw.map(decodeSegment)
  const [api, version, area, a, b, c, ...rest] = segments
  if (api !== 'api' || version !== 'v1') {
    throw notFound(`No route ${JSON.stringify(path.slice(0, 100))}; the API index is at /api/v1/`)
  }
  if (area === undefined) return { name: 'index' }
  if (rest.length > 0) throw notFound(`No route ${JSON.stringify(path.slice(0, 100))}`)
  switch (area) {
    case 'openapi.json':
      if (a === undefined) return { name: 'openapi' }
      break
    case 'feedback':
      if (a === undefined) return { name: 'feedback' }
      break
    case 'sok':
      if (a === 'alle' && b === undefined) return { name: 'search' }
      break
    case 'steder':
      throw notFound('Places (/api/v1/steder) are not available in this version of the gateway')
    case 'kilder':
      if (a === undefined) return { name: 'sources' }
      catalog.source(a)
      if (b === undefined) return { name: 'source', source: a }
      catalog.operation(a, b)
      if (c === undefined) return { name: 'operation', source: a, operation: b }
      if (c === 'schema') return { name: 'schema', source: a, operation: b }
      break
  }
  throw notFound(`No route ${JSON.stringify(path.slice(0, 100))}; the API index is at /api/v1/`)
}
