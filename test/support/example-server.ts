import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { answerServerRefusals, type HostDoors } from '@allmenning/core/adapter'

/**
 * Serves an example app on a free loopback port the way the examples' main.ts does: a 64 KB
 * header limit (so a long query reaches the gateway's own 414) and Node's own refusals
 * answered as JSON, through the app's gateway when it is given.
 *
 * @example
 * const app = createApp(env)
 * const { server, port, base } = await listenAsTheExamples(app, app.gateway)
 */
export async function listenAsTheExamples(
  listener: RequestListener,
  gateway?: HostDoors,
): Promise<{ server: Server; port: number; base: string }> {
  const server = createServer({ maxHeaderSize: 64 * 1024 }, listener)
  answerServerRefusals(server, gateway)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return { server, port, base: `http://127.0.0.1:${port}` }
}
