import { createLruMap, type ExtensionHost, type Links } from '@allmenning/core/extension'
import { allSourcesTools } from './all-sources-tools.js'
import type { ServerFor } from './mcp-endpoint.js'
import { publicGatewayTools } from './public-gateway-tools.js'
import type { Sdk } from './sdk.js'
import { sourceTools } from './source-tools.js'
import { createToolServer, type ToolServer } from './tool-server.js'

/** How many servers are kept: one per endpoint and mount point, and adapters take the mount point from the request. */
const maxServers = 200

/**
 * The servers of a gateway, made on first use for each mount point (their texts carry links) and
 * kept: the catalogue's, the catalogue's under the public gateway's tool names (the route
 * `publicGatewayRoute`), and each source's.
 */
export function createServers(host: ExtensionHost, sdk: Sdk, publicGatewayRoute: string): ServerFor {
  const servers = createLruMap<string, ToolServer>(maxServers)
  const parts = { sdk, errorResponse: host.errorResponse, onError: host.onError }

  function catalogue(links: Links): ToolServer {
    const ids = host.sources.map((s) => s.id).join(', ')
    return createToolServer(
      { name: 'allmenning', title: 'Allmenning: Norwegian public data', version: host.version },
      `Norwegian public data from ${host.sources.length} sources (${ids}). Find a source with search_sources or list_sources, read its operations with describe_source and an operation's parameters with describe_operation, then call it with get_data. Each source also has an MCP server of its own at ${links.extension('mcp', '{source}')}, with one tool per operation. Every result is the JSON envelope that GET ${links.operation('{source}', '{operation}')} answers with; outside MCP, call that URL.`,
      allSourcesTools(host.routes()),
      links,
      parts,
    )
  }

  function publicGatewayCatalogue(links: Links): ToolServer {
    return createToolServer(
      { name: 'allmenning', title: 'Allmenning: Norwegian public data', version: host.version },
      `Norwegian public data from ${host.sources.length} sources, under the tool names of the public gateway's catalogue. Find a source with search_wiki, read its operations with describe_source and an operation's parameters and json_get_url_template with describe_operation, then call it with get_data. Each source also has an MCP server of its own at ${links.extension('mcp', '{source}')}. Every result is the JSON envelope that GET ${links.operation('{source}', '{operation}')} answers with; outside MCP, call that URL.`,
      publicGatewayTools(host.routes()),
      links,
      parts,
    )
  }

  function ofSource(sourceId: string, links: Links): ToolServer {
    const source = host.sources.find((s) => s.id === sourceId)
    // The route resolved the source before it reached here.
    if (!source) throw new TypeError(`No source ${sourceId}`)
    return createToolServer(
      { name: `allmenning-${source.id}`, title: source.name, version: host.version },
      `${source.description} One tool per operation. Every result is the JSON envelope that GET ${links.operation(source.id, '{operation}')} answers with; outside MCP, call that URL. Every source of this gateway is found through ${links.extension('mcp')}.`,
      sourceTools(source, links),
      links,
      parts,
    )
  }

  return (sourceId: string | undefined, links: Links, path?: string): ToolServer => {
    const key = `${path ?? sourceId ?? ''}\u0000${links.mount}`
    let server = servers.get(key)
    if (!server) {
      // Bounded, least recently used first; a server dropped here finishes the requests it holds.
      server =
        path === publicGatewayRoute
          ? publicGatewayCatalogue(links)
          : sourceId === undefined
            ? catalogue(links)
            : ofSource(sourceId, links)
      servers.set(key, server)
    }
    return server
  }
}
