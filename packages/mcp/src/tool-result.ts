import type { ToolAnswer } from './mcp-tool.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'

/** A `tools/call` result, with the JSON it was written as, so it is not serialized again. */
export interface ToolResult {
  result: CallToolResult
  json: string
}

/**
 * The `tools/call` result for the gateway's answer to the GET a tool stands for: the answer
 * as `structuredContent` and, for clients that read only text, as a text block with the same
 * JSON. An error status (a bad argument, an unknown source, an upstream failure, a rate
 * limit) is a tool error (`isError`) carrying the shared error body, never a protocol error.
 * The JSON is written around the answer's bytes, which the gateway serialized itself.
 *
 * @example
 * toolResult({ status: 200, body: '{"data":[]}' }).result
 * // { content: [{ type: 'text', text: '{"data":[]}' }], structuredContent: { data: [] }, isError: false }
 */
export function toolResult(response: ToolAnswer): ToolResult {
  // A cache hit's envelope (called in process) or response object is shared by every call of
  // the same answer, so its result is too.
  const key = typeof response.value === 'object' && response.value !== null ? response.value : response
  let result = results.get(key)
  if (result === undefined) {
    result = makeToolResult(response)
    results.set(key, result)
  }
  return result
}

const results = new WeakMap<object, ToolResult>()

function makeToolResult(response: ToolAnswer): ToolResult {
  const body = response.body ?? ''
  const isError = response.status >= 400
  // Every answer of the JSON API is one object; anything else is passed on as text only.
  if (!(body.startsWith('{') && body.endsWith('}'))) {
    const text = body === '' ? `The gateway answered ${response.status} without a body` : body
    const result: CallToolResult = { content: [{ type: 'text', text }], isError: true }
    return { result, json: JSON.stringify(result) }
  }
  const structuredContent = (response.value ?? JSON.parse(body)) as Record<string, unknown>
  const result: CallToolResult = { content: [{ type: 'text', text: body }], structuredContent, isError }
  return {
    result,
    json: `{"content":[{"type":"text","text":${JSON.stringify(body)}}],"structuredContent":${body},"isError":${isError}}`,
  }
}
