import type { Server } from 'node:http'

/**
 * Stops a Node HTTP server the way an orchestrator's SIGTERM asks: it takes no new
 * connections, answers every request it has already received, closes each keep-alive
 * connection once it has nothing left to answer, and resolves `true` when the last one is
 * closed. Connections still busy after `timeoutMs` (20 s by default: below Kubernetes' 30 s
 * grace period, above the gateway's 10 s deadline) are cut, and it resolves `false`.
 *
 * @example
 * process.once('SIGTERM', () => void closeGracefully(server).then((clean) => process.exit(clean ? 0 : 1)))
 */
export function closeGracefully(server: Server, options: { timeoutMs?: number } = {}): Promise<boolean> {
  const timeoutMs = options.timeoutMs ?? 20_000
  return new Promise((resolve) => {
    // Requests that still arrive on an open connection are answered, and told it closes.
    const lastOnConnection = (_request: unknown, response: { setHeader(name: string, value: string): void }) =>
      response.setHeader('connection', 'close')
    server.on('request', lastOnConnection)
    // Node closes idle connections when the server closes, but a connection whose answer is
    // still being made stays open after it, until its keep-alive timeout; this closes each
    // one as soon as its answer is out.
    const sweep = setInterval(() => server.closeIdleConnections(), 25)
    const cut = setTimeout(() => {
      server.closeAllConnections()
      finish(false)
    }, timeoutMs)
    let done = false
    const finish = (clean: boolean) => {
      if (done) return
      done = true
      clearInterval(sweep)
      clearTimeout(cut)
      server.off('request', lastOnConnection)
      resolve(clean)
    }
    server.close(() => finish(true))
  })
}
