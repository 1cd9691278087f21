import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { errorResponse } from './error-response.js'
import { GatewayError } from './gateway-error.js'
import type { GatewayResponse, HostRequest } from './gateway-request.js'
import type { HostDoors } from './host-error.js'
import { linkBase } from './links.js'
import { unwritable } from './unwritable.js'

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

/**
 * A refusal as it leaves: through the gateway's exit (its `onResponse` hook) when the host
 * gave the gateway, else in the shared error body as it is.
 */
function refusalAnswer(refusal: GatewayError, request: HostRequest, gateway: HostDoors | undefined): GatewayResponse {
  const plain = () => errorResponse(refusal, linkBase(undefined, ''))
  if (!gateway?.answerRefusal) return plain()
  let answer: GatewayResponse
  try {
    answer = gateway.answerRefusal(refusal, request)
  } catch {
    // A gateway of the host's own making may throw; in a server's event listener that would
    // end the process. (createGateway's door never throws: a hook that fails, or gives what
    // HTTP cannot carry, is its shared 500.)
    return plain()
  }
  // Written by hand on the socket, or by writeHead before any app: what a door of the host's
  // own making gives that cannot be written as HTTP/1.1 (a status out of range, a header name
  // or value Node refuses, which on a raw socket would split the answer) gives way to the
  // refusal as the server makes it.
  return unwritable(answer) === undefined ? answer : plain()
}

/** The headers of an answer that closes its connection: the hook cannot keep it open or frame it otherwise. */
function closingHeaders(headers: Record<string, string>): Record<string, string> {
  const kept = Object.entries(headers).filter(([name]) => !/^(connection|transfer-encoding|keep-alive)$/i.test(name))
  return { ...Object.fromEntries(kept), connection: 'close' }
}

/** The request a refusal comes with, as adapters give theirs: method, path and query from the server's root, headers. */
function requestOf(request: IncomingMessage): HostRequest {
  const url = request.url ?? ''
  const mark = url.indexOf('?')
  return {
    method: request.method ?? '',
    path: mark === -1 ? url : url.slice(0, mark),
    query: mark === -1 ? '' : url.slice(mark + 1),
    headers: request.headers,
    basePath: '',
  }
}

/** What a refusal of a request Node could not read comes with: nothing was read of it. */
const unreadRequest = (): HostRequest => ({ method: '', path: '', query: '', headers: {}, basePath: '' })

/** Writes an answer straight to the socket, with the connection closed after it. */
function answerOnSocket(socket: Duplex, response: GatewayResponse): void {
  const head = [
    `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}`.trimEnd(),
    ...Object.entries(closingHeaders(response.headers)).map(([name, value]) => `${name}: ${value}`),
  ]
  socket.end(`${head.join('\r\n')}\r\n\r\n${response.body ?? ''}`, () => socket.destroy())
}

function clientErrorListener(gateway: HostDoors | undefined) {
  return (error: Error & { code?: string }, socket: Duplex): void => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy()
      return
    }
    const answer = () =>
      answerOnSocket(socket, refusalAnswer(parseRefusals[error.code ?? ''] ?? malformed, unreadRequest(), gateway))
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
}

function unmetExpectationListener(gateway: HostDoors | undefined) {
  return (request: IncomingMessage, response: ServerResponse): void => {
    const refusal = refusalAnswer(unmetExpectation, requestOf(request), gateway)
    // No app reads this request, so its body is drained here; left unread, it would stall the
    // connection and every request the client sends after it on the same one.
    request.resume()
    response.writeHead(refusal.status, closingHeaders(refusal.headers)).end(refusal.body ?? undefined)
  }
}

/** Without a listener Node drops a CONNECT's connection without a word; it gets a 501 instead. */
function tunnelRequestListener(gateway: HostDoors | undefined) {
  return (request: IncomingMessage, socket: Duplex): void => {
    socket.on('error', () => socket.destroy())
    if (socket.writable) answerOnSocket(socket, refusalAnswer(tunnelRefused, requestOf(request), gateway))
    else socket.destroy()
  }
}

/**
 * Makes a Node HTTP server answer what Node refuses by itself, before any app sees it, in the
 * shared error body as JSON instead of a bare status line without a body: a request its
 * parser cannot read (an unknown or lower-case method, a broken request line or header,
 * conflicting framing: 400; headers too large: 431; too slow: 408), an `Expect` other than
 * `100-continue` (417), and `CONNECT`, which Node hands to no app and would drop unanswered
 * (501). Install it once, on the server that serves the app.
 *
 * Given the gateway, every one of these answers leaves through the gateway's exit like the
 * gateway's own (`Gateway.answerRefusal`), so the host's `onResponse` hook sees it and may
 * change it. The 417 and the 501 come with their request as Node read it: its method, its path
 * and query from the server's root (a `CONNECT`'s path is its authority, `host:port`) and its
 * headers. A request Node could not read has none: the hook still sees the 400, 431 or 408, so
 * that what it puts on every answer (CORS, security headers, its own error shape) is there
 * too, with a request whose method and path are empty and whose headers are none. The
 * connection is closed after each of them, whatever the hook answers; an answer that cannot
 * be written as HTTP/1.1 (a status out of 200–599, a header Node refuses) is replaced by the
 * refusal as it was before the hook.
 *
 * @example
 * const gateway = createGateway({ sources, onResponse: (response) => void (response.headers['x-served-by'] = 'edge-1') })
 * const server = createServer(app)
 * answerServerRefusals(server, gateway)
 * server.listen(3000)
 */
export function answerServerRefusals(server: Server, gateway?: HostDoors): Server {
  server.on('clientError', clientErrorListener(gateway))
  server.on('checkExpectation', unmetExpectationListener(gateway))
  server.on('connect', tunnelRequestListener(gateway))
  return server
}
