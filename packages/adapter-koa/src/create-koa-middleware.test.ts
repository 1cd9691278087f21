import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import { bodyParser } from '@koa/bodyparser'
import { Router } from '@koa/router'
import Koa from 'koa'
import { afterEach, describe, expect, it } from 'vitest'
import { JSON_BODY, JSON_LENGTH, recordingGateway } from '../../../test/support/recording-gateway.js'
import type { Gateway, GatewayRequest } from '@allmenning/core'
import { createKoaMiddleware } from './index.js'

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections()
          server.close(() => resolve())
        }),
    ),
  )
})

async function listen(app: Koa): Promise<string> {
  const server = app.listen(0, '127.0.0.1')
  servers.push(server)
  await new Promise<void>((resolve) => server.once('listening', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** Raw HTTP, so repeated headers go out as separate lines and the exact bytes come back. */
function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string | string[]>; body?: string },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    // An array value goes out as one header line per element.
    const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers ?? {} }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      )
    })
    req.on('error', reject)
    req.end(options.body)
  })
}

describe('createKoaMiddleware on a bare Koa app', () => {
  it('hands the core the raw path, raw query and lower-cased headers, repeated ones joined', async () => {
    const { gateway, seen } = recordingGateway()
    const app = new Koa()
    app.use(createKoaMiddleware(gateway))
    const base = await listen(app)

    const res = await rawRequest(`${base}/api/v1/kilder/a%20b%2Fc?area=NO1&area=NO2&q=%C3%A6%26x&flag`, {
      headers: { 'X-Custom': ['one', 'two'], Accept: 'application/json' },
    })

    expect(res.status).toBe(200)
    expect(res.body).toBe(JSON_BODY)
    const { request } = seen[0]!
    expect(request.method).toBe('GET')
    expect(request.path).toBe('/api/v1/kilder/a%20b%2Fc')
    expect(request.query).toBe('area=NO1&area=NO2&q=%C3%A6%26x&flag')
    expect(request.basePath).toBe('')
    // Node joins a repeated header with ", " (RFC 9110 5.3), exactly as Express hands it over.
    expect(request.headers['x-custom']).toBe('one, two')
    expect(request.headers['accept']).toBe('application/json')
    expect(request.headers['X-Custom']).toBeUndefined()
  })

  it("passes the client's address as ctx.ip works it out, honouring app.proxy", async () => {
    for (const proxy of [false, true]) {
      const { gateway, seen } = recordingGateway()
      const app = new Koa({ proxy })
      app.use(createKoaMiddleware(gateway))
      const base = await listen(app)
      await rawRequest(`${base}/api/v1/`, { headers: { 'X-Forwarded-For': '203.0.113.7' } })
      expect(seen[0]!.request.clientAddress).toBe(proxy ? '203.0.113.7' : '127.0.0.1')
      expect({ ...seen[0]!.request }.clientAddress).toBe(proxy ? '203.0.113.7' : '127.0.0.1')
    }
  })

  it('writes status, headers and body bytes as the core made them', async () => {
    const { gateway } = recordingGateway(() => ({
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '3', vary: 'Accept' },
      body: '{"error":{"status":429}}',
    }))
    const app = new Koa()
    app.use(createKoaMiddleware(gateway))
    const base = await listen(app)

    const res = await fetch(`${base}/api/v1/kilder`)
    expect(res.status).toBe(429)
    // No charset appended: the header is exactly what the core chose.
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(res.headers.get('retry-after')).toBe('3')
    expect(res.headers.get('vary')).toBe('Accept')
    expect(res.headers.get('etag')).toBeNull()
    expect(await res.text()).toBe('{"error":{"status":429}}')
  })

  it("sends a cached answer's body as the bytes the core holds, as a Buffer the app's middleware sees", async () => {
    const bytes = Buffer.from(JSON_BODY)
    const { gateway } = recordingGateway(() => ({
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': JSON_LENGTH },
      body: JSON_BODY,
      encoded: { text: JSON_BODY, bytes },
    }))
    let seen: unknown
    const app = new Koa()
    app.use(async (ctx, next) => {
      await next()
      seen = ctx.body
    })
    app.use(createKoaMiddleware(gateway))
    const base = await listen(app)

    const res = await fetch(`${base}/api/v1/kilder`)
    expect(await res.text()).toBe(JSON_BODY)
    expect(res.headers.get('content-length')).toBe(JSON_LENGTH)
    expect(seen).toBe(bytes)
  })

  it('writes an answer the gateway has at once without handle(), and the middleware around it may still change it', async () => {
    const { gateway } = recordingGateway()
    const handled: GatewayRequest[] = []
    const atOnce: Gateway = {
      owns: gateway.owns,
      handle: (request) => {
        handled.push(request)
        return gateway.handle(request)
      },
      answer: () => ({
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': JSON_LENGTH },
        body: JSON_BODY,
      }),
    }
    const app = new Koa()
    app.use(async (ctx, next) => {
      await next()
      ctx.set('x-around', String(ctx.status))
    })
    app.use(createKoaMiddleware(atOnce))
    const base = await listen(app)

    const res = await fetch(`${base}/api/v1/kilder`)
    expect(res.status).toBe(200)
    expect(res.headers.get('x-around')).toBe('200')
    expect(await res.text()).toBe(JSON_BODY)
    expect(handled).toEqual([])
  })

  it('passes foreign paths to next() and leaves their response alone', async () => {
    const { gateway, seen } = recordingGateway()
    const app = new Koa()
    app.use(createKoaMiddleware(gateway))
    app.use((ctx) => {
      ctx.body = `host app: ${ctx.path}`
    })
    const base = await listen(app)

    const res = await fetch(`${base}/apiary`)
    expect(await res.text()).toBe('host app: /apiary')
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect((await fetch(`${base}/`)).status).toBe(200)
    expect(seen).toHaveLength(0)
  })

  it('keeps ETag, Cache-Control and Content-Length on HEAD and sends no body', async () => {
    const { gateway, seen } = recordingGateway()
    const app = new Koa()
    app.use(createKoaMiddleware(gateway))
    const base = await listen(app)

    const res = await rawRequest(`${base}/api/v1/kilder`, { method: 'HEAD' })
    expect(seen[0]!.request.method).toBe('HEAD')
    expect(res.status).toBe(200)
    expect(res.headers['content-length']).toBe(JSON_LENGTH)
    expect(res.headers['etag']).toBe('W/"abc"')
    expect(res.headers['cache-control']).toBe('public, max-age=60')
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.body).toBe('')
  })

  it('keeps a HEAD of a non-JSON representation at 200 with its length', async () => {
    const { gateway } = recordingGateway(() => ({
      status: 200,
      headers: { 'content-type': 'text/csv; charset=utf-8', 'content-length': '42', etag: 'W/"csv"' },
      body: null,
    }))
    const app = new Koa()
    app.use(createKoaMiddleware(gateway))
    const base = await listen(app)

    const res = await rawRequest(`${base}/api/v1/kilder.csv`, { method: 'HEAD' })
    expect(res.status).toBe(200)
    expect(res.headers['content-length']).toBe('42')
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(res.headers['etag']).toBe('W/"csv"')
  })

  it('answers 304 with ETag and Cache-Control and no body', async () => {
    const { gateway } = recordingGateway()
    const app = new Koa()
    app.use(createKoaMiddleware(gateway))
    const base = await listen(app)

    for (const method of ['GET', 'HEAD']) {
      const res = await rawRequest(`${base}/api/v1/kilder`, { method, headers: { 'If-None-Match': 'W/"abc"' } })
      expect(res.status).toBe(304)
      expect(res.headers['etag']).toBe('W/"abc"')
      expect(res.headers['cache-control']).toBe('public, max-age=60')
      expect(res.body).toBe('')
    }
  })

  it('reads a raw body when no body parser is installed', async () => {
    const { gateway, seen } = recordingGateway()
    const app = new Koa()
    app.use(createKoaMiddleware(gateway))
    const base = await listen(app)

    await fetch(`${base}/api/v1/sok`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"q":"æ"}',
    })
    const body = seen[0]!.body as Uint8Array
    expect(Buffer.from(body).toString('utf8')).toBe('{"q":"æ"}')
  })
})

describe('createKoaMiddleware with a basePath', () => {
  it('strips the basePath per segment and reports it as basePath', async () => {
    const { gateway, seen } = recordingGateway()
    const app = new Koa()
    app.use(createKoaMiddleware(gateway, { basePath: '/data/' }))
    app.use((ctx) => {
      ctx.status = 418
    })
    const base = await listen(app)

    expect((await fetch(`${base}/data/api/v1/kilder?x=1`)).status).toBe(200)
    expect(seen[0]!.request.path).toBe('/api/v1/kilder')
    expect(seen[0]!.request.query).toBe('x=1')
    expect(seen[0]!.request.basePath).toBe('/data')

    expect((await fetch(`${base}/database/api/v1`)).status).toBe(418)
    expect((await fetch(`${base}/api/v1/kilder`)).status).toBe(418)
    expect((await fetch(`${base}/data/other`)).status).toBe(418)
    expect(seen).toHaveLength(1)
  })
})

describe('createKoaMiddleware beside @koa/router and @koa/bodyparser', () => {
  function appWith(order: 'parser-first' | 'gateway-first') {
    const { gateway, seen } = recordingGateway()
    const router = new Router()
    router.get('/health', (ctx) => {
      ctx.body = { status: 'ok' }
    })
    router.post('/echo', (ctx) => {
      ctx.body = { got: (ctx.request as { body?: unknown }).body }
    })
    const app = new Koa()
    const mw = createKoaMiddleware(gateway, { basePath: '/data' })
    if (order === 'parser-first') app.use(bodyParser()).use(router.routes()).use(mw)
    else app.use(mw).use(bodyParser()).use(router.routes())
    app.use(router.allowedMethods())
    return { app, seen }
  }

  for (const order of ['parser-first', 'gateway-first'] as const) {
    it(`keeps the router's own routes answering (${order})`, async () => {
      const { app, seen } = appWith(order)
      const base = await listen(app)
      const health = await fetch(`${base}/health`)
      expect(health.status).toBe(200)
      expect(await health.json()).toEqual({ status: 'ok' })
      const echo = await fetch(`${base}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"a":1}',
      })
      expect(await echo.json()).toEqual({ got: { a: 1 } })
      expect((await fetch(`${base}/data/api/v1/kilder`)).status).toBe(200)
      expect(seen).toHaveLength(1)
    })
  }

  it('uses the parsed body, without hanging, once @koa/bodyparser drained the stream', async () => {
    const { app, seen } = appWith('parser-first')
    const base = await listen(app)
    const res = await fetch(`${base}/data/api/v1/sok`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"q":"æøå"}',
      signal: AbortSignal.timeout(3000),
    })
    expect(res.status).toBe(200)
    expect(seen[0]!.body).toEqual({ q: 'æøå' })
  })

  it('reads raw bytes when @koa/bodyparser left the stream unread', async () => {
    const { app, seen } = appWith('parser-first')
    const base = await listen(app)
    const res = await fetch(`${base}/data/api/v1/sok`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: 'raw bytes',
      signal: AbortSignal.timeout(3000),
    })
    expect(res.status).toBe(200)
    expect(Buffer.from(seen[0]!.body as Uint8Array).toString('utf8')).toBe('raw bytes')
  })

  it('reads raw bytes when the gateway runs before @koa/bodyparser', async () => {
    const { app, seen } = appWith('gateway-first')
    const base = await listen(app)
    await fetch(`${base}/data/api/v1/sok`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"q":1}',
      signal: AbortSignal.timeout(3000),
    })
    expect(Buffer.from(seen[0]!.body as Uint8Array).toString('utf8')).toBe('{"q":1}')
  })
})
