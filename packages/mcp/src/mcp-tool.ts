import type { JsonSchema } from '@allmenning/core/extension'

/** The gateway's answer to the GET a tool call stands for: its status and JSON, and the JSON as a value when the gateway has it. */
export interface ToolAnswer {
  status: number
  body: string | null
  value?: unknown
}

/** A tool as `tools/list` shows it. */
export interface ToolDefinition {
  name: string
  description: string
  /** JSON Schema (2020-12) of the arguments object. */
  inputSchema: JsonSchema & { type: 'object' }
  /** JSON Schema of `structuredContent`, where every answer of the tool has one shape. */
  outputSchema?: JsonSchema & { type: 'object' }
  annotations: {
    readOnlyHint: true
    destructiveHint: false
    idempotentHint: true
    /** The tool reaches upstream services outside the gateway. */
    openWorldHint: boolean
  }
}

/**
 * The gateway request a tool call stands for: a GET of a path below the mount point, with a
 * query string; or, for a tool that calls an operation, that operation's GET, which the
 * gateway answers in process with the parameters as values.
 */
export type ToolTarget =
  | { path: string; query: string }
  | { source: string; operation: string; params: Record<string, unknown> }

/**
 * One MCP tool: its definition, and the gateway GET a call with given arguments stands for.
 * Tools own no answers of their own: a call is that GET, sent through the gateway (an
 * operation's called in process, counted as the GET), so validation, the cache, single
 * flight, stale answers and rate limits are the REST API's.
 */
export interface McpTool {
  definition: ToolDefinition
  /** Throws a GatewayError (400) for arguments that cannot be written as that GET. */
  target(args: Record<string, unknown>): ToolTarget
  /** Rewrites the gateway's answer before it becomes the result, for a tool answering in another gateway's shape. */
  reshape?(answer: ToolAnswer): ToolAnswer
}

/** Every tool only reads. */
export function readOnly(openWorld: boolean): ToolDefinition['annotations'] {
  return { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: openWorld }
}

/**
 * The arguments object's schema from its properties. Unknown arguments are refused by the
 * route (as unknown query parameters are), so the schema says so too.
 *
 * @example
 * objectSchema({ area: { type: 'string' } }, []) // { type: 'object', properties: { area: … }, additionalProperties: false }
 */
export function objectSchema(
  properties: Record<string, JsonSchema>,
  required: string[],
): JsonSchema & { type: 'object' } {
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false }
}
