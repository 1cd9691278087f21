import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import express from 'express'
import { afterEach, describe, expect, it } from 'vitest'
import { JSON_BODY, JSON_LENGTH, recordingGateway } from '../../../test/support/recording-gateway.js'
import type { Gateway, HostRequest } from '@allmenning/core'
import { createExpressErrorHandler, createExpressMiddleware, createExpressNotFoundHandler } from './index.js'

let server: Server | undefined
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())))

async function listen(app: express.Express): Promise<string> {
  server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server!.once('listening', resolve))
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`
}

describe('createExpressMiddleware', () => {
  it('passes a mount-relative path, the raw query, lower-case headers and the mount path', async () => {
    const { gateway, seen } = recordingGateway()
    const app = express()
    app.use('/data', createExpressMiddleware(gateway))
    const base = await listen(app)
    const res = await fetch(`${base}/data/api/v1/kilder/x/y?a=1&a=2&b=%C3%A6%20%26`, { headers: { 'X-Thing': 'T' } })
    expect(res.status).toBe(200)
    expect(await res.text()).toBe(JSON_BODY)
    expect(seen[0]!.request).toMatchObject({
      method: 'GET',
      path: '/api/v1/kilder/x/y',
      query: 'a=1&a=2&b=%C3%A6%20%26',
      basePath: '/data',
    })
    expect(seen[0]!.request.headers['x-thing']).toBe('T')
  })

  it("passes the client's address as req.ip works it out, honouring trust proxy", async () => {
    for (const trust of [false, true]) {
      const { gateway, seen } = recordingGateway()
      const app = express()
      app.set('trust proxy', trust)
      app.use(createExpressMiddleware(gateway))
      const base = await listen(app)
      await fetch(`${base}/api/v1/`, { headers: { 'X-Forwarded-For': '203.0.113.7' } })
      expect(seen[0]!.request.clientAddress).toBe(trust ? '203.0.113.7' : '127.0.0.1')
      expect({ ...seen[0]!.request }.clientAddress).toBe(trust ? '203.0.113.7' : '127.0.0.1')
      // Without the header, trusted or not, it is the socket's address, as req.ip gives it.
      await fetch(`${base}/api/v1/`)
      expect(seen[1]!.request.clientAddress).toBe('127.0.0.1')
      await new Promise<void>((resolve) => server!.close(() => resolve()))
      server = undefined
    }
  })

  it('leaves paths outside /api to the host app', async () => {
    const { gateway, seen } = recordingGateway()
    const app = express()
    app.use(createExpressMiddleware(gateway))
    app.get('/health', (_req, res) => void res.send('fine'))
    const base = await listen(app)
    expect(await (await fetch(`${base}/health`)).text()).toBe('fine')
    expect(seen).toHaveLength(0)
  })

  it('writes the gateway headers as given and adds no ETag of its own', async () => {
    const { gateway } = recordingGateway(() => ({
      status: 200,
      headers: { etag: 'W/"mine"', 'cache-control': 'public, max-age=60' },
      body: JSON_BODY,
    }))
    const app = express()
    app.use(createExpressMiddleware(gateway))
    const base = await listen(app)
    const res = await fetch(`${base}/api/v1/`, { headers: { 'if-none-match': 'W/"something-else"' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('etag')).toBe('W/"mine"')
    expect(res.headers.get('cache-control')).toBe('public, max-age=60')
  })

  it('answers HEAD with headers and no body', async () => {
    const { gateway } = recordingGateway()
    const app = express()
    app.use(createExpressMiddleware(gateway))
    const base = await listen(app)
    const res = await fetch(`${base}/api/v1/`, { method: 'HEAD' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-length')).toBe(JSON_LENGTH)
    expect(res.headers.get('etag')).toBe('W/"abc"')
    expect(await res.text()).toBe('')
  })

  it('reads the body itself, or takes what express.json() parsed, without hanging', async () => {
    for (const withParser of [false, true]) {
      const { gateway, seen } = recordingGateway(() => ({ status: 202, headers: {}, body: '{}' }))
      const app = express()
      if (withParser) app.use(express.json())
      app.use(createExpressMiddleware(gateway))
      const base = await listen(app)
      const res = await fetch(`${base}/api/v1/feedback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"message":"hei"}',
      })
      expect(res.status).toBe(202)
      const body = seen[0]!.body
      if (withParser) expect(body).toEqual({ message: 'hei' })
      else expect(Buffer.from(body as Uint8Array).toString()).toBe('{"message":"hei"}')
      await new Promise<void>((resolve) => server!.close(() => resolve()))
      server = undefined
    }
  })
  it("hands a failure to write the gateway's answer to the app's error handler, given later or at once", async () => {
    // As when a host's onResponse hook sets a header value Node refuses: the answer cannot be written.
    const unwritable = () => ({
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8', 'x-trace': 'a\nb' },
      body: JSON_BODY,
    })
    const { gateway: later } = recordingGateway(unwritable)
    const atOnce: Gateway = {
      owns: later.owns,
      handle: () => Promise.reject(new Error('handle() is not called when answer() is there')),
      answer: unwritable,
    }
    // Later: a failure in the promise's then, which must not become an unhandled rejection.
    for (const gateway of [later, atOnce]) {
      const reported: unknown[] = []
      const app = express()
      app.use(createExpressMiddleware(gateway))
      app.use(createExpressErrorHandler({ onError: (error) => reported.push(error) }))
      const base = await listen(app)
      const res = await fetch(`${base}/api/v1/`)
      expect(res.status).toBe(500)
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('internal_error')
      expect(reported).toEqual([expect.objectContaining({ code: 'ERR_INVALID_CHAR' })])
      await new Promise<void>((resolve) => server!.close(() => resolve()))
      server = undefined
    }
  })
})

describe('createExpressErrorHandler', () => {
  it("hands a host error to the gateway's answerHostError with the path relative to where it is mounted", async () => {
    const asked: { path: string; basePath?: string }[] = []
    const { gateway } = recordingGateway()
    gateway.answerHostError = (_error, request) => {
      asked.push(request)
      return {
        status: 400,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: '{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"},"id":null}',
      }
    }
    const app = express()
    app.use(express.json())
    app.use('/data', createExpressErrorHandler({ gateway }))
    app.use(createExpressErrorHandler())
    const base = await listen(app)
    const mcp = await fetch(`${base}/data/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":',
    })
    expect(mcp.status).toBe(400)
    expect(((await mcp.json()) as { error: unknown }).error).toEqual({ code: -32700, message: 'Parse error' })
    expect(asked).toMatchObject([
      { method: 'POST', path: '/mcp', basePath: '/data', headers: { 'content-type': 'application/json' } },
    ])
    // Without the gateway: the shared error body, as before.
    const other = await fetch(`${base}/health`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":',
    })
    expect(((await other.json()) as { error: unknown }).error).toMatchObject({ status: 400, code: 'invalid_body' })
  })
})

describe('createExpressNotFoundHandler', () => {
  it("answers through the gateway's one exit when given the gateway, so the host's onResponse sees the 404", async () => {
    // The gateway's door for it, as the core has it: its answer is what the hook made of the 404.
    const { gateway } = recordingGateway()
    const asked: HostRequest[] = []
    gateway.answerNotFound = (request) => {
      asked.push(request)
      const body = '{"error":{"status":404,"code":"route_not_found"}}'
      return {
        status: 404,
        headers: { 'content-type': 'application/json; charset=utf-8', 'x-exit': `${request.method} ${request.path}` },
        body: request.method === 'HEAD' ? null : body,
      }
    }
    const app = express()
    app.use(createExpressMiddleware(gateway))
    app.use(createExpressNotFoundHandler({ gateway }))
    const base = await listen(app)
    const through = await fetch(`${base}/favicon.ico`)
    expect(through.status).toBe(404)
    expect(through.headers.get('x-exit')).toBe('GET /favicon.ico')
    expect(((await through.json()) as { error: unknown }).error).toMatchObject({ code: 'route_not_found' })
    const head = await fetch(`${base}/favicon.ico`, { method: 'HEAD' })
    expect(head.headers.get('x-exit')).toBe('HEAD /favicon.ico')
    expect(await head.text()).toBe('')
    expect(asked.map((request) => [request.method, request.path])).toEqual([
      ['GET', '/favicon.ico'],
      ['HEAD', '/favicon.ico'],
    ])
  })

  it('answers the shared 404 without a gateway, no hook to pass', async () => {
    const app = express()
    app.use(createExpressNotFoundHandler())
    const base = await listen(app)
    const reply = await fetch(`${base}/favicon.ico`)
    expect(reply.status).toBe(404)
    expect(reply.headers.get('x-exit')).toBeNull()
    expect(((await reply.json()) as { error: unknown }).error).toMatchObject({ code: 'route_not_found' })
  })
})
