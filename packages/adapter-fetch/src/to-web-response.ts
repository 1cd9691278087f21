import type { GatewayResponse } from '@allmenning/core'
import { bodyBytes } from '@allmenning/core/adapter'

/** Statuses whose answer never has content; `new Response` throws when given one. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304])

const encoder = new TextEncoder()

/**
 * The Web `Response` for a gateway answer: its status and exactly the headers the core chose.
 * The body goes as bytes, never as a string, because `new Response(text)` would add a
 * `text/plain;charset=UTF-8` Content-Type to an answer the gateway sent without one (an MCP
 * notification's empty 202); a cached answer's are the bytes the gateway holds, not encoded
 * again. A 304, a HEAD (whose Content-Length is the GET's) and every other status that cannot
 * have content have none.
 *
 * @example
 * toWebResponse({ status: 304, headers: { etag: 'W/"a"' }, body: null }, 'GET').body // null
 */
export function toWebResponse(answer: GatewayResponse, method: string): Response {
  const empty = answer.body === null || method === 'HEAD' || NULL_BODY_STATUSES.has(answer.status)
  // Response copies the bytes it is given, so the gateway's own stay as they are.
  const body = empty ? null : (bodyBytes(answer) ?? encoder.encode(answer.body ?? ''))
  return new Response(body, { status: answer.status, headers: answer.headers })
}
