import type { CompiledSource } from '../compile/compile-source.js'
import { getUrlTemplate, operationDescription } from '../describe/descriptors.js'
import { createLinks, type Links } from '../http/links.js'
import { objectSchema, readOnly, type McpTool } from './mcp-tool.js'
import { toQueryString } from './tool-arguments.js'

/** Paths as the gateway itself is asked for them: below the mount point, whatever the public links look like. */
const internal = createLinks(undefined, '')

/**
 * The tools of one source's MCP server: one per operation, named as the operation, described
 * as its descriptor describes it, with its parameters' JSON Schema (types, bounds, defaults,
 * allowed values) as the input schema. A call is the operation's own GET.
 *
 * @example
 * sourceTools(catalog.source('statnett'), links)[0].definition.name // 'get_physical_flow'
 */
export function sourceTools(source: CompiledSource, links: Links): McpTool[] {
  return [...source.operations.values()].map((operation) => {
    const properties = Object.fromEntries(operation.parameters.map((p) => [p.name, p.jsonSchema]))
    const required = operation.parameters.filter((p) => p.required).map((p) => p.name)
    const path = internal.operation(source.id, operation.name)
    return {
      definition: {
        name: operation.name,
        description: `${operationDescription(operation)}\n\nThe result is the JSON envelope of GET ${getUrlTemplate(links, source.id, operation)}, the same URL without MCP.`,
        inputSchema: objectSchema(properties, required),
        annotations: readOnly(true),
      },
      target: (args) => ({ path, query: toQueryString(args) }),
    }
  })
}
