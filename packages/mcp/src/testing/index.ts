// For adapter authors: the MCP endpoints' cases of the adapter conformance suite.
export { mcpConformanceCases, mcpPublicGatewayCases } from './mcp-conformance-cases.js'
