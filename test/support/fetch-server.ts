import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A fetch handler as Bun, Deno and Hono's Node server call one: the request, then the runtime's own argument. */
export type FetchListener = (request: Request, info: { remoteAddress: string | undefined }) => Promise<Response>

/** A running server around a fetch handler. */
export interface FetchServer {
  /** `http://127.0.0.1:<port>`. */
  origin: string
  close(): Promise<void>
}

/**
 * The request body as a Web stream. Cancelling it (a reader that stopped at its size limit)
 * lets the rest flow on unread, as Node does for the other adapters, rather than destroying
 * the socket the answer still has to go out on.
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let open = true
  return new ReadableStream({
    start(controller) {
      req.on('data', (chunk: Buffer) => open && controller.enqueue(new Uint8Array(chunk)))
      req.on('end', () => open && ((open = false), controller.close()))
      req.on('error', (error) => open && ((open = false), controller.error(error)))
    },
    cancel() {
      open = false
      req.resume()
    },
  })
}

/**
 * The Web `Request` a fetch runtime makes of a Node request: the URL as the client sent it
 * (the runtime's URL parser applied once, as everywhere), every header line appended in order
 * (so repeated ones are joined with ", "), and the body as a stream for methods that have one.
 */
function toWebRequest(req: IncomingMessage): Request {
  const headers = new Headers()
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!)
  const method = req.method ?? 'GET'
  const init: RequestInit & { duplex?: 'half' } = { method, headers }
  if (method !== 'GET' && method !== 'HEAD') Object.assign(init, { body: bodyStream(req), duplex: 'half' })
  return new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, init)
}

async function writeWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    headers[name] = value
  })
  res.writeHead(response.status, headers)
  res.end(response.body === null ? undefined : Buffer.from(await response.arrayBuffer()))
}

/**
 * Serves a fetch handler from Node's own `http` server on 127.0.0.1, converting each request
 * the way a fetch runtime (Bun, Deno, `@hono/node-server`) does, for tests that hold a fetch
 * adapter to real HTTP. The header limit is raised to 64 KB so a long query reaches the handler.
 *
 * @example
 * const server = await startFetchServer((request) => handler(request))
 * await fetch(`${server.origin}/api/v1/`)
 */
export async function startFetchServer(listener: FetchListener): Promise<FetchServer> {
  const server: Server = createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => {
    listener(toWebRequest(req), { remoteAddress: req.socket.remoteAddress })
      .then((response) => writeWebResponse(res, response))
      .catch(() => {
        // The adapter answers its own failures; only the conversion here could fail, and loudly.
        if (!res.headersSent) res.writeHead(599)
        res.end()
      })
  })
  server.keepAliveTimeout = 1000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
