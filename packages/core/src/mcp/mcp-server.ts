import { errorResponse } from '../http/error-response.js'
import { GatewayError } from '../http/gateway-error.js'
import type { GatewayResponse } from '../http/gateway-request.js'
import type { Links } from '../http/links.js'
import { rpcError, rpcErrorCodes, rpcResult, type RpcId } from './json-rpc.js'
import type { McpTool, ToolTarget } from './mcp-tool.js'
import { negotiateProtocolVersion } from './protocol-version.js'
import { toolResult } from './tool-result.js'

/** How a server names itself in `initialize`. */
export interface McpServerInfo {
  name: string
  title: string
  version: string
}

/** One MCP server (the catalogue, or one source's): its identity and tools, with its tool list serialized once. */
export interface McpServer {
  info: McpServerInfo
  instructions: string
  tools: Map<string, McpTool>
  /** The `tools/list` result as JSON: the same for every request, so made once. */
  toolsList: string
  /** For the error bodies of tool calls refused before they reach the gateway. */
  links: Links
}

/**
 * Puts a server together from its tools.
 *
 * @example
 * createMcpServer({ name: 'allmenning-statnett', title: 'Statnett', version: '0.1.0' }, 'One tool per operation.', tools, links)
 */
export function createMcpServer(info: McpServerInfo, instructions: string, tools: McpTool[], links: Links): McpServer {
  return {
    info,
    instructions,
    tools: new Map(tools.map((tool) => [tool.definition.name, tool])),
    toolsList: JSON.stringify({ tools: tools.map((tool) => tool.definition) }),
    links,
  }
}

/** Sends the GET a tool call stands for through the gateway. */
export type CallGateway = (target: ToolTarget) => Promise<GatewayResponse>

/** One JSON-RPC request to a server. */
export interface McpRequest {
  id: RpcId
  method: string
  params: Record<string, unknown> | undefined
}

const invalidParams = (id: RpcId, message: string) => rpcError(id, rpcErrorCodes.invalidParams, `Invalid params: ${message}`)

async function callTool(server: McpServer, request: McpRequest, callGateway: CallGateway): Promise<string> {
  const { id, params } = request
  const name = params?.name
  if (typeof name !== 'string') return invalidParams(id, 'tools/call needs the tool "name" as a string')
  const tool = server.tools.get(name)
  if (!tool) return invalidParams(id, `unknown tool ${JSON.stringify(name.slice(0, 100))}; tools: ${[...server.tools.keys()].join(', ')}`)
  const args = params?.arguments ?? {}
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return invalidParams(id, '"arguments" must be an object')
  let target: ToolTarget
  try {
    target = tool.target(args as Record<string, unknown>)
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error
    // A bad argument is the tool's error, in the body the JSON API would have answered with.
    return rpcResult(id, toolResult(errorResponse(error, server.links)))
  }
  return rpcResult(id, toolResult(await callGateway(target)))
}

/**
 * Answers one JSON-RPC request to a server: `initialize` (with version negotiation), `ping`,
 * `tools/list` and `tools/call`; any other method is -32601. Returns the response as JSON.
 *
 * @example
 * await answerRequest(server, { id: 1, method: 'tools/list', params: undefined }, callGateway)
 */
export async function answerRequest(server: McpServer, request: McpRequest, callGateway: CallGateway): Promise<string> {
  const { id, method, params } = request
  switch (method) {
    case 'initialize': {
      const requested = params?.protocolVersion
      if (typeof requested !== 'string') return invalidParams(id, 'initialize needs "protocolVersion" as a string')
      return rpcResult(
        id,
        JSON.stringify({
          protocolVersion: negotiateProtocolVersion(requested),
          capabilities: { tools: { listChanged: false } },
          serverInfo: server.info,
          instructions: server.instructions,
        }),
      )
    }
    case 'ping':
      return rpcResult(id, '{}')
    case 'tools/list':
      // Every tool comes in one page, so no cursor was ever handed out.
      if (params?.cursor !== undefined) return invalidParams(id, 'unknown cursor; every tool is listed in the first page')
      return rpcResult(id, server.toolsList)
    case 'tools/call':
      return callTool(server, request, callGateway)
    default:
      return rpcError(id, rpcErrorCodes.methodNotFound, `Method not found: ${method.slice(0, 100)}; this server offers initialize, ping, tools/list and tools/call`)
  }
}
