import { GatewayError, type GatewayResponse } from '@allmenning/core'
import type { Links } from '@allmenning/core/extension'
import type { McpTool, ToolAnswer, ToolTarget } from './mcp-tool.js'
import { RequestTransport } from './request-transport.js'
import type { Sdk } from './sdk.js'
import { toolResult } from './tool-result.js'

/** How a server names itself in `initialize`. */
export interface ToolServerInfo {
  name: string
  title: string
  version: string
}

/** What a request's tool call needs from the POST it came in. */
export interface CallContext {
  /** Has the gateway answer the GET a tool call stands for (an operation's in process), as the client that posted. */
  callGateway(target: ToolTarget): Promise<ToolAnswer>
}

/** What a server needs from the gateway. */
export interface ToolServerParts {
  /** The MCP SDK, loaded. */
  sdk: Sdk
  /** The shared error body of an argument refused before it reaches the gateway. */
  errorResponse(error: unknown, links: Links): GatewayResponse
  onError(error: unknown): void
}

/** One MCP server (the catalogue server or a source's) and the transport its requests go through. */
export interface ToolServer {
  transport: RequestTransport<CallContext>
  /** Resolves once the SDK server is connected to its transport. */
  ready: Promise<void>
}

/**
 * One SDK `Server` over a list of tools, made once and kept: `initialize` (with its version
 * negotiation), `ping`, `tools/list`, `tools/call` and every JSON-RPC error are the SDK's. Its
 * two handlers are ours: the tool list, made once, and a tool call, which is the GET the tool
 * stands for answered by the gateway, its answer returned as the tool's result.
 *
 * @example
 * const { transport } = createToolServer({ name: 'allmenning-statnett', title: 'Statnett', version: '0.1.0' }, 'One tool per operation.', tools, links, parts)
 */
export function createToolServer(
  info: ToolServerInfo,
  instructions: string,
  tools: McpTool[],
  links: Links,
  parts: ToolServerParts,
): ToolServer {
  const { Server, McpError, ErrorCode, CallToolRequestSchema, ListToolsRequestSchema } = parts.sdk
  const server = new Server(info, { capabilities: { tools: { listChanged: false } }, instructions })
  const transport = new RequestTransport<CallContext>()
  const byName = new Map(tools.map((tool) => [tool.definition.name, tool]))
  const list = { tools: tools.map((tool) => tool.definition) }
  const names = [...byName.keys()].join(', ')

  server.onerror = (error) => parts.onError(error)
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    // Every tool comes in one page, so no cursor was ever handed out.
    if (request.params?.cursor !== undefined)
      throw new McpError(ErrorCode.InvalidParams, 'unknown cursor; every tool is listed in the first page')
    return list
  })
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name)
    if (!tool)
      throw new McpError(
        ErrorCode.InvalidParams,
        `unknown tool ${JSON.stringify(request.params.name.slice(0, 100))}; this server's tools: ${names}`,
      )
    const context = transport.context(extra.requestId)
    if (!context) throw new McpError(ErrorCode.InternalError, 'Internal error: the request was not found')
    let response: ToolAnswer
    try {
      response = await context.callGateway(tool.target(request.params.arguments ?? {}))
      if (tool.reshape) response = tool.reshape(response)
    } catch (error) {
      // A bad argument is the tool's error, in the body the JSON API would have answered with.
      if (error instanceof GatewayError) response = parts.errorResponse(error, links)
      else {
        parts.onError(error)
        throw new McpError(ErrorCode.InternalError, 'Internal error: the failure has been logged')
      }
    }
    const { result, json } = toolResult(response)
    transport.setResultJson(extra.requestId, json)
    return result
  })
  return { transport, ready: server.connect(transport) }
}
