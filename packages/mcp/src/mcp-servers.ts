import { createLruMap, type ExtensionHost, type GatewayExtension, type Links } from '@allmenning/core/extension'
import { allSourcesTools } from './all-sources-tools.js'
import { createMcpEndpoint, refuseHostError, type McpOptions } from './mcp-endpoint.js'
import { publicGatewayTools } from './public-gateway-tools.js'
import { sourceTools } from './source-tools.js'
import type { Sdk } from './sdk.js'
import { createToolServer, type ToolServer } from './tool-server.js'

/** The route of the catalogue under the public gateway's tool names. */
const PUBLIC_GATEWAY_ROUTE = 'mcp_allemannsdata'

/** What `mcpServers` serves. */
export interface McpServersOptions extends McpOptions {
  /**
   * Also serve the catalogue where agents configured for the public gateway (allemannsdata.com)
   * look for it, `/allemannsdata/mcp` at the mount point, with its tool names: `search_wiki`,
   * `describe_source`, `describe_operation` (answering `json_get_url_template`) and `get_data`.
   * Off by default; the example servers turn it on with their `/wiki` compatibility mount.
   */
  publicGatewayCatalogue?: boolean
}

/** How many servers are kept: one per endpoint and mount point, and adapters take the mount point from the request. */
const maxServers = 200

/** The servers of a gateway, made on first use for each mount point (their texts carry links) and kept. */
function createServers(host: ExtensionHost, sdk: Sdk) {
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
        path === PUBLIC_GATEWAY_ROUTE
          ? publicGatewayCatalogue(links)
          : sourceId === undefined
            ? catalogue(links)
            : ofSource(sourceId, links)
      servers.set(key, server)
    }
    return server
  }
}

/**
 * Serves every source of a gateway as an MCP server too (Streamable HTTP, stateless), through
 * whatever adapter mounts the gateway: a catalogue server at `/mcp` whose tools find, describe
 * and call any source, and one server per source at `/{source}/mcp` with one tool per
 * operation. A tool call is the operation's own GET, answered by the gateway in process, so it
 * gets the JSON API's validation, cache, single flight, rate limits and stale answers. Built on the
 * official MCP SDK's server.
 *
 * @example
 * import { createGateway } from '@allmenning/core'
 * import { mcpServers } from '@allmenning/mcp'
 * import { builtInSources } from '@allmenning/sources'
 *
 * const gateway = createGateway({ sources: builtInSources(process.env), extensions: [mcpServers()] })
 * // Agents configured for the public gateway's catalogue too: POST /allemannsdata/mcp
 * createGateway({ sources: builtInSources(process.env), extensions: [mcpServers({ publicGatewayCatalogue: true })] })
 */
export function mcpServers(options: McpServersOptions = {}): GatewayExtension {
  const { publicGatewayCatalogue, ...endpoint } = options
  return {
    name: 'mcp',
    ...(publicGatewayCatalogue
      ? {
          paths: [
            {
              name: PUBLIC_GATEWAY_ROUTE,
              path: '/allemannsdata/mcp',
              summary:
                "MCP server (Streamable HTTP) over the catalogue under the public gateway's tool names: search_wiki, describe_source, describe_operation, get_data",
            },
          ],
        }
      : {}),
    summary: {
      gateway: 'MCP server (Streamable HTTP) over the catalogue: find, describe and call any source',
      source: 'MCP server (Streamable HTTP) of one source: one tool per operation',
    },
    attach: (host) => createMcpEndpoint(host, (sdk) => createServers(host, sdk), endpoint),
    refuse: refuseHostError,
  }
}
