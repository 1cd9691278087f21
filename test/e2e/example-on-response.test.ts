// The example servers with a host's `onResponse`: every answer a client gets from them (an
// operation, the explorer, MCP, a host error, a path nobody serves) leaves through the gateway's
// one exit, so one function puts a header on all of them.
import type { RequestListener, Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ResponseHook } from '@allmenning/core'
import { createApp as createExpressApp } from '../../examples/express-server/src/app.js'
import { createApp as createKoaApp } from '../../examples/koa-server/src/app.js'
import { listenAsTheExamples } from '../support/example-server.js'
import { offlineEnvironment } from '../support/offline-environment.js'

const stamp: ResponseHook = (response) => {
  response.headers['x-served-by'] = 'allmenning'
}
const apps: Record<string, () => RequestListener> = {
  express: () => createExpressApp(offlineEnvironment(), { onError: () => {}, onResponse: stamp }),
  koa: () =>
    createKoaApp(offlineEnvironment(), {
      gateway: { onError: () => {}, onResponse: stamp },
      onHostError: () => {},
    }).callback(),
}

describe.each(Object.keys(apps))('the example %s server with onResponse', (name) => {
  let server: Server
  let base: string
  beforeAll(async () => {
    ;({ server, base } = await listenAsTheExamples(apps[name]!()))
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it.each<[string, string, RequestInit, number]>([
    ['the API index', '/api/v1/', {}, 200],
    ['a bad parameter', '/api/v1/kilder/statnett/get_physical_flow?limit=0', {}, 400],
    ['the explorer', '/api/v1/docs', {}, 200],
    [
      'an MCP request',
      '/mcp',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      },
      200,
    ],
    [
      'malformed JSON to a host route',
      '/health',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"q": ' },
      400,
    ],
    ['a path nobody serves', '/favicon.ico', {}, 404],
  ])('%s carries the header', async (_what, path, init, status) => {
    const reply = await fetch(`${base}${path}`, init)
    expect(reply.status).toBe(status)
    expect(reply.headers.get('x-served-by')).toBe('allmenning')
  })

  it("the host's own route is the host's: the gateway's hook does not touch it", async () => {
    const reply = await fetch(`${base}/health`)
    expect(reply.status).toBe(200)
    expect(reply.headers.get('x-served-by')).toBeNull()
  })
})
