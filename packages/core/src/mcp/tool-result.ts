import type { GatewayResponse } from '../http/gateway-request.js'

/**
 * The `tools/call` result for the gateway's answer to the GET a tool stands for: the answer
 * as `structuredContent` and, for clients that read only text, as a text block with the same
 * JSON. An error status (a bad argument, an unknown source, an upstream failure, a rate
 * limit) is a tool error (`isError`) carrying the shared error body, never a protocol error.
 * The result is written around the answer's bytes, which the gateway serialized itself, so a
 * large envelope is never parsed and serialized again.
 *
 * @example
 * toolResult({ status: 200, headers: {}, body: '{"data":[]}' })
 * // '{"content":[{"type":"text","text":"{\"data\":[]}"}],"structuredContent":{"data":[]},"isError":false}'
 */
export function toolResult(response: GatewayResponse): string {
  // A cache hit's response object is shared by every call in the same second, so its result is too.
  let result = results.get(response)
  if (result === undefined) {
    result = makeToolResult(response)
    results.set(response, result)
  }
  return result
}

const results = new WeakMap<GatewayResponse, string>()

function makeToolResult(response: GatewayResponse): string {
  const body = response.body ?? ''
  const isError = response.status >= 400
  // Every answer of the JSON API is one object; anything else is passed on as text only.
  if (!(body.startsWith('{') && body.endsWith('}'))) {
    const text = body === '' ? `The gateway answered ${response.status} without a body` : body
    return JSON.stringify({ content: [{ type: 'text', text }], isError: true })
  }
  return `{"content":[{"type":"text","text":${JSON.stringify(body)}}],"structuredContent":${body},"isError":${isError}}`
}
