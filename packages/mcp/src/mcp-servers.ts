import type { GatewayExtension } from '@allmenning/core/extension'
import { createMcpEndpoint, refuseHostError, type McpOptions } from './mcp-endpoint.js'

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
    // The servers' code (the tools, their texts) is loaded with the SDK, on the first POST: a
    // gateway that is never asked for MCP, or a cold start answering a GET, does not evaluate it.
    attach: (host) =>
      createMcpEndpoint(
        host,
        (sdk) => import('./server-set.js').then(({ createServers }) => createServers(host, sdk, PUBLIC_GATEWAY_ROUTE)),
        endpoint,
      ),
    refuse: refuseHostError,
  }
}
