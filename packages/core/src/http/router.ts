import { compileRoute, matchSegments, type CompiledRoute, type RouteQuery, type RouteDefinition } from './define-route.js'
import { GatewayError } from './gateway-error.js'

/** The root every route hangs under. */
export const apiRoot = '/api/v1'

/** A request path matched to a route, with its path parameters and the query parameters it takes. */
export interface RouteMatch extends RouteQuery {
  route: CompiledRoute
  path: Record<string, string>
}

export interface Router {
  routes: CompiledRoute[]
  /** Matches a mount-relative path; a 404 that points at the API index when nothing does. */
  match(path: string): RouteMatch
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

/**
 * Creates the router over a route table. Segments are percent-decoded one by one, so an
 * encoded `/` inside a source id stays part of the id (and is then simply not found). Routes
 * are tried in table order; literal routes should come before the parameterised ones they
 * overlap.
 *
 * @example
 * createRouter(routes).match('/api/v1/kilder/statnett/get_physical_flow').route.definition.name // 'operation'
 */
export function createRouter(definitions: RouteDefinition[]): Router {
  const routes = definitions.map(compileRoute)
  const names = new Set<string>()
  for (const route of routes) {
    if (names.has(route.definition.name)) throw new TypeError(`Two routes are named ${route.definition.name}`)
    names.add(route.definition.name)
  }
  const notFound = (path: string) =>
    new GatewayError(404, 'route_not_found', `No route ${JSON.stringify(path.slice(0, 100))}; the API index is at ${apiRoot}/`)
  return {
    routes,
    match(path) {
      if (path !== apiRoot && !path.startsWith(`${apiRoot}/`)) throw notFound(path)
      const raw = path.slice(apiRoot.length).split('/').slice(1)
      if (raw.length > 1 && raw[raw.length - 1] === '') raw.pop()
      const segments = raw.length === 1 && raw[0] === '' ? [] : raw.map(decodeSegment)
      for (const route of routes) {
        const params = matchSegments(route, segments)
        if (!params) continue
        const query = route.definition.resolve?.(params) ?? { parameters: route.parameters, ignored: [] }
        return { route, path: params, ...query }
      }
      throw notFound(path)
    },
  }
}
