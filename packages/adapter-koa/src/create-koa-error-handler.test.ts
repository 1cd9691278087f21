import { request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Koa from 'koa'
import { afterEach, describe, expect, it } from 'vitest'
import type { HostRequest } from '@allmenning/core'
import { hostErrorResponse } from '@allmenning/core/adapter'
import { recordingGateway } from '../../../test/support/recording-gateway.js'
import { createKoaErrorHandler } from './create-koa-error-handler.js'
import { createKoaMiddleware } from './create-koa-middleware.js'
import { createKoaNotFoundHandler } from './create-koa-not-found-handler.js'

let server: Server | undefined
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())))

async function listen(app: Koa): Promise<string> {
  server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server!.once('listening', resolve))
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`
}

function head(url: string) {
  return new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
    const req = httpRequest(url, { method: 'HEAD' }, (res) => {
      res.resume()
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('createKoaErrorHandler and createKoaNotFoundHandler', () => {
  it("answers a route's crash as a 500 in the shared body, hiding its cause and dropping what it had set", async () => {
    const heard: unknown[] = []
    const app = new Koa()
    app.use(createKoaErrorHandler({ basePath: '/data', onError: (error) => heard.push(error) }))
    app.use((ctx) => {
      ctx.set('x-half-made', 'yes')
      throw new Error('secret database password in here')
    })
    const base = await listen(app)
    const res = await fetch(`${base}/crash`)
    const text = await res.text()
    expect(res.status).toBe(500)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(res.headers.get('x-half-made')).toBeNull()
    expect(JSON.parse(text).error).toMatchObject({ status: 500, code: 'internal_error' })
    expect(JSON.parse(text)._links.api_index).toBe('/data/api/v1/')
    expect(text).not.toContain('secret')
    expect(heard).toHaveLength(1)
  })

  it('keeps the status of a 4xx thrown with one, with a message of its own', async () => {
    const app = new Koa()
    app.use(createKoaErrorHandler())
    app.use((ctx) => ctx.throw(413, `body of 9 GB: ${'x'.repeat(50)}`))
    const base = await listen(app)
    const res = await fetch(`${base}/upload`)
    expect(res.status).toBe(413)
    expect(((await res.json()) as { error: unknown }).error).toMatchObject({ code: 'body_too_large' })
  })

  it("leaves the gateway's own answers alone, a HEAD's bodiless 404 included, and answers only unserved paths", async () => {
    const { gateway } = recordingGateway((request) => ({
      status: 404,
      headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': '77', 'x-from': 'gateway' },
      body: request.method === 'HEAD' ? null : '{"error":{"status":404,"code":"entity_not_found"}}',
    }))
    const app = new Koa()
    app.use(createKoaErrorHandler())
    app.use(createKoaMiddleware(gateway))
    app.use(createKoaNotFoundHandler())
    const base = await listen(app)
    const own = await head(`${base}/api/v1/kilder/x/y`)
    expect(own.status).toBe(404)
    expect(own.headers['x-from']).toBe('gateway')
    expect(own.headers['content-length']).toBe('77')
    const other = await fetch(`${base}/favicon.ico`)
    expect(other.status).toBe(404)
    expect(((await other.json()) as { error: unknown }).error).toMatchObject({ code: 'route_not_found' })
  })

  it("hands a host error to the gateway's answerHostError, mount-relative, unless outside the mount on a path it owns", async () => {
    const asked: HostRequest[] = []
    const { gateway } = recordingGateway()
    gateway.owns = (path) => path === '/mcp'
    gateway.answerHostError = (error, request) => {
      asked.push(request)
      if (request.path !== '/mcp') return hostErrorResponse(error, request.basePath)
      return {
        status: 400,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: '{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"},"id":null}',
      }
    }
    const app = new Koa()
    app.use(createKoaErrorHandler({ basePath: '/data', gateway }))
    app.use((ctx) => ctx.throw(400, 'Unexpected end of JSON input'))
    const base = await listen(app)
    const mcp = await fetch(`${base}/data/mcp`, { method: 'POST' })
    expect(mcp.status).toBe(400)
    expect(((await mcp.json()) as { error: unknown }).error).toEqual({ code: -32700, message: 'Parse error' })
    // A host route outside the mount: still the gateway's exit, the shared error body.
    const outside = await fetch(`${base}/health`, { method: 'POST' })
    expect(((await outside.json()) as { error: unknown }).error).toMatchObject({ status: 400, code: 'invalid_body' })
    expect(asked).toMatchObject([
      { method: 'POST', path: '/mcp', basePath: '/data' },
      { method: 'POST', path: '/health', basePath: '/data' },
    ])
    // /mcp outside the mount is not the gateway's endpoint: never its JSON-RPC refusal.
    const notTheEndpoint = await fetch(`${base}/mcp`, { method: 'POST' })
    expect(((await notTheEndpoint.json()) as { error: unknown }).error).toMatchObject({
      status: 400,
      code: 'invalid_body',
    })
    expect(asked).toHaveLength(2)
  })

  it("answers a path nobody served through the gateway's one exit when given the gateway, onResponse included", async () => {
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
    const app = new Koa()
    app.use(createKoaMiddleware(gateway, { basePath: '/data' }))
    app.use(createKoaNotFoundHandler({ basePath: '/data', gateway }))
    const base = await listen(app)
    const reply = await fetch(`${base}/favicon.ico`)
    expect(reply.status).toBe(404)
    expect(reply.headers.get('x-exit')).toBe('GET /favicon.ico')
    expect(((await reply.json()) as { error: unknown }).error).toMatchObject({ code: 'route_not_found' })
    const headReply = await head(`${base}/favicon.ico`)
    expect(headReply.headers['x-exit']).toBe('HEAD /favicon.ico')
    expect(asked).toMatchObject([
      { method: 'GET', path: '/favicon.ico', basePath: '/data' },
      { method: 'HEAD', path: '/favicon.ico', basePath: '/data' },
    ])
  })
})
