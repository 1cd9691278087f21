import {
  compileRoute,
  matchSegments,
  type CompiledRoute,
  type RouteQuery,
  type RouteDefinition,
} from './define-route.js'
import { GatewayError } from '../http/gateway-error.js'
import { apiPath } from '../http/links.js'

/** A request path matched to a route, with its path parameters and the query parameters it takes. */
export interface RouteMatch extends RouteQuery {
  route: CompiledRoute
  path: Record<string, string>
  /** Set when the route must load first (`prepare`): the query is resolved once it has, by matching again. */
  loading?: Promise<void>
}

export interface Router {
  routes: CompiledRoute[]
  /** Matches a mount-relative path; a 404 that points at the API index when nothing does. */
  match(path: string): RouteMatch
  /**
   * Whether a mount-relative path is the gateway's: `/api` and everything under it, and the
   * paths of routes at the mount point whose path parameters resolve (`/statnett/mcp` for a
   * source it serves, not `/anything/mcp`), so the host app keeps every other path.
   */
  owns(path: string): boolean
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
  const apiRoutes = routes.filter((route) => route.definition.root !== 'mount')
  const mountRoutes = routes.filter((route) => route.definition.root === 'mount')
  const notFound = (path: string) =>
    new GatewayError(
      404,
      'route_not_found',
      `No route ${JSON.stringify(path.slice(0, 100))}; the API index is at ${apiPath}/`,
    )

  /** The route and path parameters for the segments of a path below one root, or undefined. */
  function find(candidates: CompiledRoute[], rest: string): RouteMatch | undefined {
    const raw = rest.split('/').slice(1)
    if (raw.length > 1 && raw[raw.length - 1] === '') raw.pop()
    const segments = raw.length === 1 && raw[0] === '' ? [] : raw.map(decodeSegment)
    for (const route of candidates) {
      const params = matchSegments(route, segments)
      if (!params) continue
      const loading = route.definition.prepare?.(params)
      if (loading) return { route, path: params, parameters: [], ignored: [], loading }
      const query = route.definition.resolve?.(params) ?? { parameters: route.parameters, ignored: [] }
      return { route, path: params, ...query }
    }
    return undefined
  }

  const underApi = (path: string) => path === apiPath || path.startsWith(`${apiPath}/`)
  return {
    routes,
    match(path) {
      const found = underApi(path)
        ? find(apiRoutes, path.slice(apiPath.length))
        : mountRoutes.length > 0
          ? find(mountRoutes, path)
          : undefined
      if (!found) throw notFound(path)
      return found
    },
    owns(path) {
      if (path === '/api' || path.startsWith('/api/')) return true
      if (mountRoutes.length === 0) return false
      try {
        return find(mountRoutes, path) !== undefined
      } catch {
        // An unknown source or a malformed segment: not one of ours, so the host app answers.
        return false
      }
    },
  }
}
