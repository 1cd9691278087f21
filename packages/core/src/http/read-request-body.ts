import type { Readable } from 'node:stream'
import { GatewayError } from './gateway-error.js'

/** The largest request body the gateway accepts, in bytes (only feedback takes one). */
export const maxRequestBodyBytes = 16 * 1024

/**
 * Whether requests of a method may carry a body worth reading (GET and HEAD never do here),
 * so adapters give only those a `readBody`.
 *
 * @example
 * hasBody('POST') // true
 * hasBody('GET') // false
 */
export function hasBody(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD'
}

/** The 400 for a body over the limit, the same whichever adapter read it. */
export function bodyTooLarge(limitBytes: number): GatewayError {
  return new GatewayError(400, 'invalid_body', `The request body is larger than ${limitBytes} bytes`, {
    details: [{ parameter: 'body', problem: `must be at most ${limitBytes} bytes`, rule: 'max_size' }],
  })
}

/**
 * Reads a Node request stream into bytes, refusing more than `limitBytes`. When a body
 * parser already consumed the stream it resolves `undefined` at once instead of waiting
 * for data that will never come.
 *
 * @example
 * readBody: () => (req.body !== undefined ? Promise.resolve(req.body) : readRequestBody(req))
 */
export async function readRequestBody(stream: Readable, limitBytes = maxRequestBodyBytes): Promise<Uint8Array | undefined> {
  if (stream.readableEnded || stream.destroyed) return undefined
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer)
    size += buffer.length
    // Stop reading at the limit rather than buffering whatever a client sends.
    if (size > limitBytes) throw bodyTooLarge(limitBytes)
    chunks.push(buffer)
  }
  return Buffer.concat(chunks)
}
