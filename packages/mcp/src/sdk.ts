import type * as SdkServer from '@modelcontextprotocol/sdk/server/index.js'
import type * as SdkTypes from '@modelcontextprotocol/sdk/types.js'

/** What the package takes from the MCP SDK at run time. */
export interface Sdk {
  Server: typeof SdkServer.Server
  McpError: typeof SdkTypes.McpError
  ErrorCode: typeof SdkTypes.ErrorCode
  CallToolRequestSchema: typeof SdkTypes.CallToolRequestSchema
  ListToolsRequestSchema: typeof SdkTypes.ListToolsRequestSchema
  JSONRPCMessageSchema: typeof SdkTypes.JSONRPCMessageSchema
  SUPPORTED_PROTOCOL_VERSIONS: typeof SdkTypes.SUPPORTED_PROTOCOL_VERSIONS
}

let loading: Promise<Sdk> | undefined

/**
 * The MCP SDK, loaded on the first MCP request rather than when the gateway starts: the SDK
 * builds some hundreds of schemas as it loads, which a Lambda's cold start (and every REST
 * request it answers) would otherwise pay for before anyone asks for MCP. A bundler that
 * inlines the SDK keeps it lazy too.
 *
 * @example
 * const { Server } = await loadSdk()
 */
export function loadSdk(): Promise<Sdk> {
  loading ??= Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]).then(([server, types]) => ({
    Server: server.Server,
    McpError: types.McpError,
    ErrorCode: types.ErrorCode,
    CallToolRequestSchema: types.CallToolRequestSchema,
    ListToolsRequestSchema: types.ListToolsRequestSchema,
    JSONRPCMessageSchema: types.JSONRPCMessageSchema,
    SUPPORTED_PROTOCOL_VERSIONS: types.SUPPORTED_PROTOCOL_VERSIONS,
  }))
  return loading
}
