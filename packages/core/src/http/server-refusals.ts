import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { errorResponse } from './error-response.js'
import { GatewayError } from './gateway-error.js'
import { linkBase } from './links.js'

/** The parse failures Node reports with a status of their own; any other one is a 400. */
const parseRefusals: Record<string, GatewayError> = {
  HPE_HEADER_OVERFLOW: new GatewayError(
    431,
    'request_rejected',
    'The request headers are larger than this server accepts',
  ),
  ERR_HTTP_REQUEST_TIMEOUT: new GatewayError(408, 'request_rejected', 'The request was not received in time'),
}
const malformed = new GatewayError(
  400,
  'request_rejected',
  'The request is not well-formed HTTP/1.1: its request line, a header or its framing could not be read',
)
const unmetExpectation = new GatewayError(
  417,
  'request_rejected',
  'The request carries an Expect this server cannot meet; only 100-continue is understood',
)
const tunnelRefused = new GatewayError(
  501,
  'request_rejected',
  'CONNECT is not served here: this server is not a proxy and opens no tunnels',
)

/** Writes a refusal straight to the socket, with the connection closed after it. */
function refuseOnSocket(socket: Duplex, refusal: GatewayError): void {
  const response = errorResponse(refusal, linkBase(undefined, ''))
  const head = [
    `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status]}`,
    ...Object.entries(response.headers).map(([name, value]) => `${name}: ${value}`),
    'connection: close',
  ]
  socket.end(`${head.join('\r\n')}\r\n\r\n${response.body}`, () => socket.destroy())
}

function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy()
    return
  }
  const answer = () => refuseOnSocket(socket, parseRefusals[error.code ?? ''] ?? malformed)
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage
  if (!inFlight || inFlight.writableFinished) {
    answer()
    return
  }
  if (inFlight.req.complete) {
    // An earlier, complete request of this connection is still being answered (pipelining):
    // its answer goes out first, then ours, so that no bytes land in the middle of it.
    inFlight.once('finish', () => (socket.writable ? answer() : socket.destroy()))
    inFlight.once('close', () => !inFlight.writableFinished && socket.destroy())
    return
  }
  // The request being answered is the broken one (its body could not be read): it gets the
  // 400, unless its answer has begun, which nothing can follow.
  if (inFlight.headersSent) socket.destroy()
  else answer()
}

function answerUnmetExpectation(request: IncomingMessage, response: ServerResponse): void {
  const refusal = errorResponse(unmetExpectation, linkBase(undefined, ''))
  // No app reads this request, so its body is drained here; left unread, it would stall the
  // connection and every request the client sends after it on the same one.
  request.resume()
  response.writeHead(refusal.status, { ...refusal.headers, connection: 'close' }).end(refusal.body)
}

/** Without a listener Node drops a CONNECT's connection without a word; it gets a 501 instead. */
function answerTunnelRequest(_request: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => socket.destroy())
  if (socket.writable) refuseOnSocket(socket, tunnelRefused)
  else socket.destroy()
}

/**
 * Makes a Node HTTP server answer what Node refuses by itself, before any app sees it, in the
 * shared error body as JSON instead of a bare status line without a body: a request its
 * parser cannot read (an unknown or lower-case method, a broken request line or header,
 * conflicting framing: 400; headers too large: 431; too slow: 408), an `Expect` other than
 * `100-continue` (417), and `CONNECT`, which Node hands to no app and would drop unanswered (501). Install it once, on the server that serves the app.
 *
 * @example
 * const server = createServer(app)
 * answerServerRefusals(server)
 * server.listen(3000)
 */
export function answerServerRefusals(server: Server): Server {
  server.on('clientError', answerClientError)
  server.on('checkExpectation', answerUnmetExpectation)
  server.on('connect', answerTunnelRequest)
  return server
}
