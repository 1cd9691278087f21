import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Koa from 'koa'
import { afterEach, describe, expect, it } from 'vitest'
import { recordingGateway } from '../../../test/support/recording-gateway.js'
import { basePathOf } from './base-path-option.js'
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

describe('basePathOf', () => {
  it('normalizes basePath, and reads the deprecated prefix when basePath is not given', () => {
    expect(basePathOf({})).toBe('')
    expect(basePathOf({ basePath: 'data/' })).toBe('/data')
    expect(basePathOf({ prefix: '/data/' })).toBe('/data')
    expect(basePathOf({ basePath: '/data', prefix: 'data/' })).toBe('/data')
  })

  it('refuses a basePath and a prefix that name two mount points', () => {
    expect(() => basePathOf({ basePath: '/data', prefix: '/gw' })).toThrow(
      /basePath "\/data" and the deprecated prefix "\/gw" disagree/,
    )
  })
})

// `prefix` was the Koa adapter's name for the mount point before `basePath`; it still works
// for one release, the same way in all three middlewares.
describe.each([
  ['basePath', { basePath: '/data' }],
  ['the deprecated prefix', { prefix: '/data' }],
])('the Koa middlewares mounted with %s', (_name, mount) => {
  it('serve the gateway below the mount point only, reporting it as the basePath of the request', async () => {
    const { gateway, seen } = recordingGateway()
    const app = new Koa()
    app.use(createKoaMiddleware(gateway, mount))
    app.use((ctx) => {
      ctx.status = 418
    })
    const base = await listen(app)
    expect((await fetch(`${base}/data/api/v1/kilder`)).status).toBe(200)
    expect((await fetch(`${base}/api/v1/kilder`)).status).toBe(418)
    expect(seen.map((s) => [s.request.path, s.request.basePath])).toEqual([['/api/v1/kilder', '/data']])
  })

  it('answer an unserved path and a host error with links through the mount point', async () => {
    const app = new Koa()
    app.use(createKoaErrorHandler(mount))
    app.use((ctx, next) => (ctx.path === '/data/boom' ? ctx.throw(400, 'Unexpected end of JSON input') : next()))
    app.use(createKoaNotFoundHandler(mount))
    const base = await listen(app)
    const missing = (await (await fetch(`${base}/nowhere`)).json()) as { error: { message: string } }
    expect(missing.error.message).toContain('the API index is at /data/api/v1/')
    const refused = await fetch(`${base}/data/boom`, { method: 'POST' })
    expect(refused.status).toBe(400)
    expect(JSON.stringify(await refused.json())).toContain('/data/api/v1')
  })
})
