export { mcpServers, type McpServersOptions } from './mcp-servers.js'
export type { McpOptions } from './mcp-endpoint.js'
