import { createLruMap } from '../cache/lru-map.js'
import type { Catalog } from '../compile/catalog.js'
import type { CompiledRoute } from '../http/define-route.js'
import type { Links } from '../http/links.js'
import { catalogueTools } from './catalogue-tools.js'
import { createMcpServer, type McpServer } from './mcp-server.js'
import { sourceTools } from './source-tools.js'

/** What the servers are made from. */
export interface McpServerParts {
  catalog: Catalog
  /** The compiled route table, which the catalogue's tools are made from. */
  routes(): CompiledRoute[]
  version: string
}

/** The server behind an endpoint: the catalogue's (no source) or a source's, for the links of a mount point. */
export type McpServers = (sourceId: string | undefined, links: Links) => McpServer

/**
 * The MCP servers of a gateway, each made once per mount point (their descriptions and
 * instructions carry links) and kept: the catalogue at `/mcp`, one per source at
 * `/{source}/mcp`. An unknown source is the catalogue's 404.
 *
 * @example
 * const servers = createMcpServers({ catalog, routes: () => router.routes, version: '0.1.0' })
 * servers('statnett', links).tools.has('get_physical_flow') // true
 */
export function createMcpServers(parts: McpServerParts): McpServers {
  // Keyed by mount point too, which adapters take from the request: bounded all the same.
  const servers = createLruMap<string, McpServer>(200)

  function catalogue(links: Links): McpServer {
    const { catalog, version } = parts
    const ids = catalog.sources.map((s) => s.id).join(', ')
    return createMcpServer(
      { name: 'allmenning', title: 'Allmenning: Norwegian public data', version },
      `Norwegian public data from ${catalog.sources.length} sources (${ids}). Find a source with search_sources or list_sources, read its operations with describe_source and an operation's parameters with describe_operation, then call it with get_data. Each source also has an MCP server of its own at ${links.mcp('{source}')}, with one tool per operation. Every result is the JSON envelope that GET ${links.operation('{source}', '{operation}')} answers with; outside MCP, call that URL.`,
      catalogueTools(parts.routes()),
      links,
    )
  }

  function ofSource(sourceId: string, links: Links): McpServer {
    const source = parts.catalog.source(sourceId)
    return createMcpServer(
      { name: `allmenning-${source.id}`, title: source.definition.name, version: parts.version },
      `${source.definition.description} One tool per operation. Every result is the JSON envelope that GET ${links.operation(source.id, '{operation}')} answers with; outside MCP, call that URL. Every source of this gateway is found through ${links.mcp()}.`,
      sourceTools(source, links),
      links,
    )
  }

  return (sourceId, links) => {
    const key = `${sourceId ?? ''}\u0000${links.mount}`
    let server = servers.get(key)
    if (!server) {
      server = sourceId === undefined ? catalogue(links) : ofSource(sourceId, links)
      servers.set(key, server)
    }
    return server
  }
}
