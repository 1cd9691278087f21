// An adapter from outside the repository, as its author would test it: Node's own http server
// in a few lines of the core's adapter helpers, held to the published conformance suite.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Gateway, GatewayResponse } from '@allmenning/core'
import {
  answerOf,
  answerServerRefusals,
  bodyBytes,
  hasBody,
  normalizeMountPath,
  readRequestBody,
  stripMountPath,
} from '@allmenning/core/adapter'
import { runAdapterConformance } from '@allmenning/core/conformance'
import { serverRefusalsThroughTheExit } from './server-refusal-case.js'

/** Serves the gateway under `mount`; the host's own /health, and a plain 404 for the rest. */
function nodeHttpAdapter(gateway: Gateway, mount: string) {
  const basePath = normalizeMountPath(mount)
  return (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/'
    const mark = url.indexOf('?')
    const path = stripMountPath(mark === -1 ? url : url.slice(0, mark), basePath)
    if (path === undefined || !gateway.owns(path)) {
      if (url === '/health')
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}')
      return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found')
    }
    const method = req.method ?? 'GET'
    const write = (answer: GatewayResponse) =>
      void res.writeHead(answer.status, answer.headers).end(bodyBytes(answer) ?? answer.body ?? undefined)
    // The answer itself when the gateway has it at once (a cache hit), else a promise of it;
    // written in a microtask, after Node's parser has read the rest of what arrived with it.
    const answer = answerOf(gateway, {
      method,
      path,
      query: mark === -1 ? '' : url.slice(mark + 1),
      headers: req.headers,
      basePath,
      ...(req.socket.remoteAddress ? { clientAddress: req.socket.remoteAddress } : {}),
      ...(hasBody(method) ? { readBody: () => readRequestBody(req) } : {}),
    })
    if (answer instanceof Promise) void answer.then(write)
    else queueMicrotask(() => write(answer))
  }
}

runAdapterConformance(
  { describe, it, expect, beforeAll, afterAll },
  async (gateway) => {
    // Node's default header limit (16 KB) would refuse the suite's 16 KB query before the gateway.
    const server = createServer({ maxHeaderSize: 64 * 1024 }, nodeHttpAdapter(gateway, '/data'))
    // What Node refuses before the adapter sees it, answered through the gateway's exit too.
    answerServerRefusals(server, gateway)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/data`
    const close = () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())))
    return { url, close }
  },
  {
    name: 'a bare node:http adapter at /data',
    publicPrefix: '/data',
    hostApp: { notFoundType: /^text\/plain/ },
    cases: [serverRefusalsThroughTheExit],
  },
)
