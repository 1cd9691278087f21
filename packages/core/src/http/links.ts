import { createLruMap } from '../util/lru-map.js'

/** Where the JSON API hangs below the mount point; written here only. */
export const apiPath = '/api/v1'

/** Where the OpenAPI document hangs below the API root: its route's path, and what every error body links to. */
export const openApiPath = '/openapi.json'

/**
 * Builds the gateway's own URLs from its route table: absolute under `publicBaseUrl` when one
 * is configured, otherwise root-relative under the adapter's mount path. Every link is a
 * route's own path with its `{name}` segments filled, so a path is written once, in its
 * route record.
 *
 * @example
 * links.operation('statnett', 'get_physical_flow', { area: 'NO1' })
 * // 'https://data.example.no/api/v1/kilder/statnett/get_physical_flow?area=NO1'
 */
export interface Links {
  /** The API root every JSON API link starts with: the mount point and `/api/v1`. */
  readonly apiRoot: string
  /** The mount point itself (`https://data.example.no`, `/data` or ''): where the API root and extensions' endpoints (MCP) hang. */
  readonly mount: string
  /**
   * The URL of the route named `route` (`place`, `search`, ...) with its path parameters
   * filled and an optional query. A value such as `{operation}` stays a template placeholder.
   */
  to(route: string, path?: Record<string, string | number>, query?: Record<string, unknown>): string
  /** The API index. */
  index(): string
  /** The list of sources. */
  sources(): string
  /** A source's descriptor. */
  source(sourceId: string, query?: Record<string, unknown>): string
  /** A call of an operation; `{operation}` stays a template placeholder. */
  operation(sourceId: string, operation: string, query?: Record<string, unknown>): string
  /** An operation's `/schema` descriptor; `{operation}` stays a template placeholder. */
  operationSchema(sourceId: string, operation: string): string
  /** A URI template for calling an operation with the named query parameters. */
  operationTemplate(sourceId: string, operation: string, parameters: string[]): string
  /** An extension's endpoint for a source (`/{source}/mcp`), or for the whole gateway (`/mcp`) without one. */
  extension(name: string, sourceId?: string): string
}

/** What links are made from: a route's name, its path and where the path hangs (see `RouteDefinition`). */
export interface LinkedRoute {
  name: string
  path: string
  root?: 'api' | 'mount'
}

export function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return ''
  const parts: string[] = []
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue
    const text = typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value)
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(text)}`)
  }
  return parts.length > 0 ? `?${parts.join('&')}` : ''
}

// A template placeholder such as {operation} is kept as it is.
const segment = (value: string) => (/^\{[a-z_]+\}$/.test(value) ? value : encodeURIComponent(value))

/** The mount point and API root for a public base URL or an adapter's mount path. */
export function linkBase(
  publicBaseUrl: string | undefined,
  basePath: string | undefined,
): Pick<Links, 'apiRoot' | 'mount'> {
  const mount = (publicBaseUrl ?? basePath ?? '').replace(/\/+$/, '')
  return { apiRoot: `${mount}${apiPath}`, mount }
}

/** A route's path, split once into literal text and the names of its parameters. */
function compilePath(route: LinkedRoute) {
  const parts = route.path.split(/(\{[a-z_]+\})/).filter((part) => part !== '')
  return {
    root: route.root ?? 'api',
    parts: parts.map((part) => (part.startsWith('{') ? { name: part.slice(1, -1) } : part)),
  }
}

/**
 * Makes the links of a route table: one `Links` per base, made on first use and kept, since
 * every request under the same mount path shares it.
 *
 * @example
 * const linksFor = createLinkFactory(routes)
 * linksFor('https://data.example.no', '').source('statnett') // 'https://data.example.no/api/v1/kilder/statnett'
 */
export function createLinkFactory(
  routes: readonly LinkedRoute[],
): (publicBaseUrl: string | undefined, basePath: string | undefined) => Links {
  const paths = new Map(routes.map((route) => [route.name, compilePath(route)]))
  const made = createLruMap<string, Links>(200)
  const create = (publicBaseUrl: string | undefined, basePath: string | undefined): Links => {
    const { apiRoot, mount } = linkBase(publicBaseUrl, basePath)
    const to: Links['to'] = (name, path = {}, query) => {
      const compiled = paths.get(name)
      if (!compiled) throw new TypeError(`A link to the route ${name}, which the gateway does not have`)
      let url = compiled.root === 'mount' ? mount : apiRoot
      for (const part of compiled.parts) {
        if (typeof part === 'string') url += part
        else {
          const value = path[part.name]
          if (value === undefined) throw new TypeError(`A link to the route ${name} needs ${part.name}`)
          url += segment(String(value))
        }
      }
      return url + queryString(query)
    }
    return {
      apiRoot,
      mount,
      to,
      index: () => to('api_index'),
      sources: () => to('sources'),
      source: (source, query) => to('source', { source }, query),
      operation: (source, operation, query) => to('operation', { source, operation }, query),
      operationSchema: (source, operation) => to('operation_schema', { source, operation }),
      operationTemplate: (source, operation, parameters) =>
        `${to('operation', { source, operation })}${parameters.length > 0 ? `{?${parameters.join(',')}}` : ''}`,
      extension: (name, source) => (source === undefined ? to(name) : to(`source_${name}`, { source })),
    }
  }
  return (publicBaseUrl, basePath) => {
    const key = `${publicBaseUrl ?? ''}\u0000${basePath ?? ''}`
    let links = made.get(key)
    if (!links) {
      links = create(publicBaseUrl, basePath)
      made.set(key, links)
    }
    return links
  }
}
