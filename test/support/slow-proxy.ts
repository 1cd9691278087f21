import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A local proxy in front of a fake upstream that answers late, or never. */
export interface SlowProxy {
  /** The fake's base URL, reached through the proxy. */
  baseUrl: string
  /** How many requests reached the proxy. */
  readonly calls: number
  close(): Promise<void>
}

/**
 * Plays a slow or hanging upstream in front of a fast fake: every request waits `delayMs`
 * before it is forwarded (`'hang'`: it is never answered), so an operation's real calls,
 * payloads and quirks stay those of the fake.
 *
 * @example
 * const slow = await startSlowProxy(brreg.baseUrl, 900)
 * createGateway({ sources: [firmafakta()], upstreams: { brreg: { baseUrl: slow.baseUrl } } })
 */
export async function startSlowProxy(target: string, delayMs: number | 'hang'): Promise<SlowProxy> {
  const targetUrl = new URL(target)
  let calls = 0
  const server: Server = createServer((req, res) => {
    calls++
    if (delayMs === 'hang') return
    setTimeout(() => {
      const upstream = httpRequest(
        { host: targetUrl.hostname, port: targetUrl.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        },
      )
      upstream.on('error', () => res.destroy())
      req.pipe(upstream)
    }, delayMs)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}${targetUrl.pathname.replace(/\/$/, '')}`,
    get calls() {
      return calls
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
