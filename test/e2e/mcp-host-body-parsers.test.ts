// The MCP endpoints behind a host app's own body parser, over real HTTP: express.json in front
// of the gateway in an Express app, @koa/bodyparser in front of it in a Koa app (and the two
// examples, where the gateway comes first and reads its own bodies). The parser reads the
// body first under its own limit (100 KB, 1 MB), so the endpoint's 16 KB must still hold, and
// the parser's own refusals (malformed JSON, a body over its limit) must reach an MCP client
// as JSON-RPC errors, not as the JSON API's error body.
import { request as httpRequest, type RequestListener, type Server } from 'node:http'
import { bodyParser } from '@koa/bodyparser'
import express from 'express'
import Koa from 'koa'
import Keyv from 'keyv'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createExpressErrorHandler,
  createExpressMiddleware,
  createExpressNotFoundHandler,
} from '@allmenning/adapter-express'
import { createKoaErrorHandler, createKoaMiddleware } from '@allmenning/adapter-koa'
import { createGateway } from '@allmenning/core'
import { mcpServers } from '@allmenning/mcp'
import { builtInSources } from '@allmenning/sources'
import { createApp as createExpressApp } from '../../examples/express-server/src/app.js'
import { createApp as createKoaApp } from '../../examples/koa-server/src/app.js'
import { listenAsTheExamples } from '../support/example-server.js'
import { offlineEnvironment } from '../support/offline-environment.js'

const hostErrors: unknown[] = []

const mcpGateway = () =>
  createGateway({
    sources: builtInSources(offlineEnvironment()),
    cache: new Keyv(),
    extensions: [mcpServers()],
    onError: () => {},
  })

/** An Express app with express.json in front of the gateway, the order docs/mounting.md shows. */
function expressWithParserInFront(): RequestListener {
  const gateway = mcpGateway()
  const app = express()
  app.use(express.json())
  app.use(createExpressMiddleware(gateway))
  app.use(createExpressNotFoundHandler({ gateway }))
  app.use(createExpressErrorHandler({ gateway, onError: (error) => hostErrors.push(error) }))
  return app
}

/** A Koa app with @koa/bodyparser in front of the gateway, the order its README shows for most apps. */
function koaWithParserInFront(): RequestListener {
  const gateway = mcpGateway()
  const app = new Koa()
  app.use(createKoaErrorHandler({ gateway, onError: (error) => hostErrors.push(error) }))
  app.use(bodyParser())
  app.use(createKoaMiddleware(gateway))
  return app.callback()
}

const apps: Record<string, { listener: () => RequestListener; parserLimit: number }> = {
  'an Express app with express.json in front': { listener: expressWithParserInFront, parserLimit: 100 * 1024 },
  'the Express example (the gateway reads its own body)': {
    listener: () => createExpressApp(offlineEnvironment(), { onError: () => {} }),
    parserLimit: 100 * 1024,
  },
  'a Koa app with @koa/bodyparser in front': { listener: koaWithParserInFront, parserLimit: 1024 * 1024 },
  'the Koa example (the gateway reads its own body)': {
    listener: () =>
      createKoaApp(offlineEnvironment(), {
        gateway: { onError: () => {} },
        onHostError: (error) => hostErrors.push(error),
      }).callback(),
    parserLimit: 1024 * 1024,
  },
}

const ping = (padding = '') => `{"jsonrpc":"2.0","id":7,"method":"ping"${padding}}`
const listTools = (filler: number) =>
  JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/list', params: { _meta: { filler: 'x'.repeat(filler) } } })

describe.each(Object.keys(apps))('MCP behind %s', (name) => {
  let server: Server
  let base: string
  beforeAll(async () => {
    ;({ server, base } = await listenAsTheExamples(apps[name]!.listener()))
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  function post(path: string, body: string, headers: Record<string, string> = {}) {
    return new Promise<{ status: number; type: string; json: any }>((resolve, reject) => {
      const req = httpRequest(
        `${base}${path}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8')
            resolve({
              status: res.statusCode!,
              type: String(res.headers['content-type']),
              json: text ? JSON.parse(text) : undefined,
            })
          })
        },
      )
      req.on('error', reject)
      req.end(body)
    })
  }

  it('answers a small body', async () => {
    const res = await post('/mcp', ping())
    expect(res.status).toBe(200)
    expect(res.json).toEqual({ jsonrpc: '2.0', id: 7, result: {} })
  })

  it.each([
    ['17 KB of whitespace, which the parser drops', () => ping(' '.repeat(17 * 1024))],
    ['17 KB of content', () => listTools(17 * 1024)],
    ['90 KB', () => listTools(90 * 1024)],
    ["200 KB, over express.json's own limit", () => listTools(200 * 1024)],
  ])('refuses a body of %s with 413 and a JSON-RPC error', async (_size, body) => {
    const res = await post('/statnett/mcp', body())
    expect(res.status).toBe(413)
    expect(res.type).toBe('application/json; charset=utf-8')
    expect(res.json).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: 'Payload Too Large: Request body must not exceed 16384 bytes' },
    })
  })

  it("refuses a body over the parser's own limit with the same 413", async () => {
    const res = await post('/mcp', listTools(apps[name]!.parserLimit + 1024))
    expect(res.status).toBe(413)
    expect(res.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } })
  })

  it.each([
    ['malformed JSON', '{"jsonrpc":', {}],
    ['a truncated batch', '[{"jsonrpc":"2.0","id":1,"method":"ping"},', {}],
    ['a body that does not inflate', 'not gzip at all', { 'content-encoding': 'gzip' }],
  ])('answers %s with the parse error -32700 and id null', async (_name, body, headers) => {
    for (const path of ['/mcp', '/statnett/mcp']) {
      const res = await post(path, body, headers)
      expect(res.status, path).toBe(400)
      expect(res.type).toBe('application/json; charset=utf-8')
      expect(res.json, path).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'Parse error: Invalid JSON' },
      })
    }
  })

  it('still answers the JSON API and the host app with the shared error body', async () => {
    const res = await post('/api/v1/feedback', '{"message":')
    expect(res.status).toBe(400)
    expect(res.json.error).toMatchObject({ status: 400, code: 'invalid_body' })
    expect(hostErrors).toEqual([])
  })
})
