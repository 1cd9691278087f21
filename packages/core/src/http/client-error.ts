import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import { errorResponse } from './error-response.js'
import { GatewayError } from './gateway-error.js'
import { createLinks } from './links.js'

/** The parse failures Node reports with a status of their own; any other one is a 400. */
const refusals: Record<string, GatewayError> = {
  HPE_HEADER_OVERFLOW: new GatewayError(431, 'request_rejected', 'The request headers are larger than this server accepts'),
  ERR_HTTP_REQUEST_TIMEOUT: new GatewayError(408, 'request_rejected', 'The request was not received in time'),
}
const malformed = new GatewayError(400, 'request_rejected', 'The request is not well-formed HTTP/1.1: its request line, a header or its framing could not be read')

/**
 * A `clientError` listener for a Node HTTP server: a request Node's parser refused before any
 * app saw it (an unknown or lower-case method, a broken request line or header, headers too
 * large, a request too slow) gets the shared error body as JSON instead of Node's bare
 * response without a body. As Node does, it answers only on a connection that has not been
 * answered on yet (anything else could interleave with an answer), then closes it.
 *
 * @example
 * const server = createServer(app)
 * server.on('clientError', answerClientError)
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex & { bytesWritten?: number }): void {
  if (error.code === 'ECONNRESET' || !socket.writable || (socket.bytesWritten ?? 0) > 0) {
    socket.destroy()
    return
  }
  const response = errorResponse(refusals[error.code ?? ''] ?? malformed, createLinks(undefined, ''))
  const head = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status]}`, ...Object.entries(response.headers).map(([name, value]) => `${name}: ${value}`), 'connection: close']
  socket.end(`${head.join('\r\n')}\r\n\r\n${response.body}`, () => socket.destroy())
}
