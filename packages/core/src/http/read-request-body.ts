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

/** The 413 for a body over the limit, the same whichever adapter read it (and the same as a host parser's). */
export function bodyTooLarge(limitBytes: number): GatewayError {
  return new GatewayError(413, 'body_too_large', `The request body is larger than ${limitBytes} bytes`, {
    details: [{ parameter: 'body', problem: `must be at most ${limitBytes} bytes`, rule: 'max_size' }],
  })
}

/**
 * Holds a body a host app's parser already made a value of (express.json, @koa/bodyparser:
 * 100 KB or more) to the gateway's own limit: by the Content-Length the client sent, and by
 * the value written back as JSON (a chunked or compressed body has no useful length). Throws
 * {@link bodyTooLarge}; a value with no JSON form throws JSON.stringify's TypeError.
 *
 * @example
 * checkParsedBodySize(req.body, req.headers['content-length']) // throws a 413 past 16 KB
 */
export function checkParsedBodySize(
  value: unknown,
  contentLength: string | string[] | undefined,
  limitBytes = maxRequestBodyBytes,
): void {
  if (Number(Array.isArray(contentLength) ? contentLength[0] : contentLength) > limitBytes)
    throw bodyTooLarge(limitBytes)
  bodyText(JSON.stringify(value) ?? '', limitBytes)
}

/**
 * The text of a body held whole, as an adapter that never streamed it through the limit
 * (Lambda) hands it on, or as {@link readRequestBody} read it: more than `limitBytes` of
 * UTF-8 is {@link bodyTooLarge}, whichever adapter it came through.
 *
 * @example
 * JSON.parse(bodyText(Buffer.from(event.body, 'base64'))) // a Lambda event's body, at most 16 KB
 */
export function bodyText(body: string | Uint8Array, limitBytes = maxRequestBodyBytes): string {
  // A string has at most three UTF-8 bytes per UTF-16 unit, so a short one needs no counting.
  const bytes = typeof body !== 'string' ? body.byteLength : body.length * 3 <= limitBytes ? 0 : Buffer.byteLength(body)
  if (bytes > limitBytes) throw bodyTooLarge(limitBytes)
  return typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')
}

/**
 * Reads a Node request stream into bytes, refusing more than `limitBytes`. When a body
 * parser already consumed the stream it resolves `undefined` at once instead of waiting
 * for data that will never come. A stream that closes before its end rejects.
 *
 * @example
 * readBody: () => (req.body !== undefined ? Promise.resolve(req.body) : readRequestBody(req))
 */
export function readRequestBody(stream: Readable, limitBytes = maxRequestBodyBytes): Promise<Uint8Array | undefined> {
  if (stream.readableEnded || stream.destroyed) return Promise.resolve(undefined)
  // Listeners rather than `for await`: the async iterator cost a small POST about a sixth of
  // the server's instructions per request (counted with callgrind through Express).
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const stop = () => {
      stream.off('data', onData)
      stream.off('end', onEnd)
      stream.off('error', onError)
      stream.off('close', onClose)
    }
    const onData = (chunk: Buffer | string) => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
      size += buffer.length
      // Stop keeping at the limit rather than buffering whatever a client sends; what is left
      // flows on unread, and Node discards it once the answer is sent.
      if (size > limitBytes) {
        stop()
        reject(bodyTooLarge(limitBytes))
        return
      }
      chunks.push(buffer)
    }
    const onEnd = () => {
      stop()
      resolve(Buffer.concat(chunks))
    }
    const onError = (error: Error) => {
      stop()
      reject(error)
    }
    const onClose = () => {
      stop()
      reject(new Error('The request closed before its body ended'))
    }
    stream.on('data', onData)
    stream.on('end', onEnd)
    stream.on('error', onError)
    stream.on('close', onClose)
  })
}
