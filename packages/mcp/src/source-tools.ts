import type { ExtensionSource, Links } from '@allmenning/core/extension'
import { objectSchema, readOnly, type McpTool, type ToolDefinition } from './mcp-tool.js'
import { toParameters } from './tool-arguments.js'

/**
 * What an operation tool's `structuredContent` is: the JSON envelope, or on a tool error the
 * shared error body. Nothing is required, so both fit; it tells a client the fields to read.
 */
const envelopeSchema: NonNullable<ToolDefinition['outputSchema']> = {
  type: 'object',
  description: 'The JSON envelope the GET answers with; when isError is true, the shared error body ({error}) instead.',
  properties: {
    source: { type: 'string' },
    operation: { type: 'string' },
    parameters: { type: 'object' },
    data: { description: "The operation's data: a list, or an object." },
    _meta: { type: 'object' },
    _provenance: { type: 'object' },
    _links: { type: 'object' },
    error: { type: 'object', description: 'Only on a tool error: status, code, message and details.' },
  },
}

/**
 * The tools of one source's MCP server: one per operation, named as the operation, described
 * as its descriptor describes it, with its parameters' JSON Schema (types, bounds, defaults,
 * allowed values) as the input schema. A call is the operation's own GET.
 *
 * @example
 * host.sources.map((source) => sourceTools(source, links)[0]?.definition.name) // ['get_physical_flow', …]
 */
export function sourceTools(source: ExtensionSource, links: Links): McpTool[] {
  return source.operations.map((operation) => {
    const properties = Object.fromEntries(operation.parameters.map((p) => [p.name, p.jsonSchema]))
    const required = operation.parameters.filter((p) => p.required).map((p) => p.name)
    return {
      definition: {
        name: operation.name,
        description: `${operation.description}\n\nThe result is the JSON envelope of GET ${operation.getUrlTemplate(links)}, the same URL without MCP.`,
        inputSchema: objectSchema(properties, required),
        outputSchema: envelopeSchema,
        annotations: readOnly(true),
      },
      target: (args) => ({ source: source.id, operation: operation.name, params: toParameters(args) }),
    }
  })
}
