import type { GatewayResponse } from '@allmenning/core'
import { jsonContentType } from '@allmenning/core/adapter'
import { createLruMap } from '@allmenning/core/extension'

// How the MCP endpoints frame what they send: JSON, or one server-sent event, or no body.

/**
 * A response with a JSON-RPC body, as JSON or as one server-sent event, never cached.
 *
 * @example
 * reply(200, '{"jsonrpc":"2.0","id":1,"result":{}}')
 */
export function reply(status: number, body: string, framing: Framing = 'json'): GatewayResponse {
  if (framing === 'sse') {
    // One event with the response, for clients that accept only an event stream.
    const event = `event: message\n${body
      .split('\n')
      .map((line) => `data: ${line}`)
      .join('\n')}\n\n`
    return {
      status,
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'content-length': String(Buffer.byteLength(event)),
        'cache-control': 'no-store',
      },
      body: event,
    }
  }
  return {
    status,
    headers: {
      'content-type': jsonContentType,
      'content-length': String(Buffer.byteLength(body)),
      'cache-control': 'no-store',
    },
    body,
  }
}

/**
 * A refusal at the HTTP level, before any message reaches the MCP server: an error status
 * with a JSON-RPC error that has no id, as the SDK's own HTTP transport answers.
 */
export const refuse = (status: number, code: number, message: string): GatewayResponse =>
  reply(status, JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }))

/** Nothing to answer: notifications and responses are accepted with 202 and no body. */
export const accepted = (): GatewayResponse => ({
  status: 202,
  headers: { 'content-length': '0', 'cache-control': 'no-store' },
  body: null,
})

export type Framing = 'json' | 'sse'

/**
 * How to frame the answer, from the Accept header: JSON whenever the client takes it (also
 * when it sends no Accept, or only `application/json`, though the transport asks for both
 * types), one server-sent event when it takes only an event stream, nothing otherwise.
 */
export function framingFor(accept: string | undefined): Framing | undefined {
  if (accept === undefined || accept.trim() === '') return 'json'
  // Clients send the same few Accept headers on every request: each is read once.
  const known = framings.get(accept)
  if (known !== undefined) return known === 'none' ? undefined : known
  const framing = readAccept(accept)
  framings.set(accept, framing ?? 'none')
  return framing
}

/** Bounded: a client may send any Accept header at all. */
const framings = createLruMap<string, Framing | 'none'>(64)

function readAccept(accept: string): Framing | undefined {
  const types = accept
    .toLowerCase()
    .split(',')
    .map((part) => part.split(';'))
    .filter(([, ...options]) => !options.some((option) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(option)))
    .map(([type]) => type!.trim())
  if (types.some((type) => type === 'application/json' || type === 'application/*' || type === '*/*')) return 'json'
  if (types.some((type) => type === 'text/event-stream' || type === 'text/*')) return 'sse'
  return undefined
}
