import type { Readable } from 'node:stream'
import { GatewayError } from './gateway-error.js'

/**
 * Reads a Node request stream into bytes, refusing more than `limitBytes`. When a body
 * parser already consumed the stream it resolves `undefined` at once instead of waiting
 * for data that will never come.
 *
 * @example
 * readBody: () => (req.body !== undefined ? Promise.resolve(req.body) : readRequestBody(req))
 */
export async function readRequestBody(stream: Readable, limitBytes = 16 * 1024): Promise<Uint8Array | undefined> {
  if (stream.readableEnded || stream.destroyed) return undefined
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer)
    size += buffer.length
    if (size > limitBytes) {
      throw new GatewayError(400, 'invalid_body', `The request body is larger than ${limitBytes} bytes`, {
        details: [{ parameter: 'body', problem: `must be at most ${limitBytes} bytes`, rule: 'max_size' }],
      })
    }
    chunks.push(buffer)
  }
  return Buffer.concat(chunks)
}
