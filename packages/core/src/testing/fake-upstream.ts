import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** What a fake route answers: status, headers and the exact body bytes. */
export interface FakeReply {
  status?: number
  headers?: Record<string, string>
  body?: string | Buffer
  /** Wait this long before answering, to play a slow upstream. */
  delayMs?: number
  /** Drop the connection without answering, to play a broken upstream. */
  destroy?: boolean
}

export type FakeRoute = (url: URL, req: IncomingMessage) => FakeReply | Promise<FakeReply>

export interface FakeUpstream {
  /** `http://127.0.0.1:<port>` plus the prefix the fake serves under. */
  baseUrl: string
  /** Every request received, as path with query. */
  requests: string[]
  /** Replace the handler of a path (exact pathname match; `*` answers every path no other route matches). */
  route(pathname: string, handler: FakeRoute): void
  close(): Promise<void>
}

/**
 * Starts a local HTTP server on 127.0.0.1 that plays an upstream service. Unknown paths
 * answer 404, like the real services do, unless a route named `*` takes them (for services
 * that carry parameters in the path, such as FIRMS's `/area/csv/{key}/{source}/{area}/{days}`).
 */
export async function startFakeUpstream(routes: Record<string, FakeRoute> = {}, prefix = ''): Promise<FakeUpstream> {
  const table = new Map(Object.entries(routes))
  const requests: string[] = []
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    requests.push(url.pathname + url.search)
    const pathname = prefix && url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname
    const handler = table.get(pathname) ?? table.get('*')
    const reply: FakeReply = handler ? await handler(url, req) : { status: 404, body: 'Not Found' }
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs))
    if (reply.destroy) {
      req.socket.destroy()
      return
    }
    res.writeHead(reply.status ?? 200, reply.headers ?? {})
    res.end(reply.body ?? '')
  })
  server.keepAliveTimeout = 1000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}${prefix}`,
    requests,
    route: (pathname, handler) => void table.set(pathname, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
