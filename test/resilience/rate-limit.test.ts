import { EventEmitter } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import Koa from 'koa'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, type GatewayOptions, type GatewayRequest } from '@allmenning/core'
import { statnett } from '@allmenning/sources'
import { createExpressMiddleware } from '@allmenning/adapter-express'
import { createKoaMiddleware } from '@allmenning/adapter-koa'
import { createLambdaHandler } from '@allmenning/adapter-lambda'
import type { FakeUpstream } from '@allmenning/core/testing'
import { startFakeStatnett } from '@allmenning/sources/statnett/testing'
import { startLambdaEventServer } from '../support/lambda-event-server.js'

let fake: FakeUpstream
const servers: Server[] = []
beforeAll(async () => {
  fake = await startFakeStatnett()
})
afterAll(async () => {
  for (const server of servers) server.closeAllConnections()
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
  await fake.close()
})

const gatewayWith = (rateLimit: GatewayOptions['rateLimit']) =>
  createGateway({
    sources: [statnett()],
    upstreams: { statnett: { baseUrl: fake.baseUrl } },
    rateLimit,
    onError: () => {},
  })
const request = (path: string, extra: Partial<GatewayRequest> = {}): GatewayRequest => ({
  method: 'GET',
  path,
  query: '',
  headers: {},
  ...extra,
})
const flow = '/api/v1/kilder/statnett/get_physical_flow'

describe('rate limits per client (spec 7: 429)', () => {
  it('answers 429 in the shared error body, with Retry-After and the IETF RateLimit headers', async () => {
    const gateway = gatewayWith({ quota: { requests: 3, windowSeconds: 60 } })
    const answers = []
    for (let i = 0; i < 4; i++) answers.push(await gateway.handle(request(flow, { clientAddress: '203.0.113.5' })))
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429])
    expect(answers[0]!.headers['ratelimit-policy']).toBe('"default";q=3;w=60')
    expect(answers[0]!.headers.ratelimit).toMatch(/^"default";r=2;t=(60|59)$/)
    expect(answers[2]!.headers.ratelimit).toMatch(/^"default";r=0;t=\d+$/)
    const refused = answers[3]!
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect(refused.headers['ratelimit-policy']).toBe('"default";q=3;w=60')
    expect(refused.headers['cache-control']).toBe('no-store')
    const body = JSON.parse(refused.body!)
    expect(body.error).toMatchObject({ status: 429, code: 'rate_limited', details: [] })
    expect(body.error.message).toMatch(/3 requests per 60 s; try again in \d+ s/)
    expect(body._links.api_index).toBe('/api/v1/')
    // Another client has its own quota.
    expect((await gateway.handle(request(flow, { clientAddress: '203.0.113.6' }))).status).toBe(200)
  })

  it('counts expensive routes against a stricter quota as well', async () => {
    const gateway = gatewayWith({
      quota: { requests: 100, windowSeconds: 60 },
      expensive: { requests: 2, windowSeconds: 60 },
    })
    const client = { clientAddress: '198.51.100.1', query: 'q=grid' }
    const statuses = []
    for (let i = 0; i < 3; i++) statuses.push((await gateway.handle(request('/api/v1/sok/alle', client))).status)
    expect(statuses).toEqual([200, 200, 429])
    const refused = await gateway.handle(request('/api/v1/sok/alle', client))
    expect(refused.headers['ratelimit-policy']).toBe('"default";q=100;w=60, "expensive";q=2;w=60')
    expect(JSON.parse(refused.body!).error.message).toMatch(/2 requests to expensive routes per 60 s/)
    // The general quota still has room for cheap routes.
    expect((await gateway.handle(request(flow, { clientAddress: '198.51.100.1' }))).status).toBe(200)
  })

  it('counts by a key the user chooses, and leaves requests without one alone', async () => {
    const gateway = gatewayWith({
      quota: { requests: 1, windowSeconds: 60 },
      clientKey: (req) => (typeof req.headers['x-api-key'] === 'string' ? req.headers['x-api-key'] : undefined),
    })
    const keyed = request(flow, { headers: { 'x-api-key': 'team-a' }, clientAddress: '192.0.2.1' })
    expect((await gateway.handle(keyed)).status).toBe(200)
    expect((await gateway.handle({ ...keyed, clientAddress: '192.0.2.2' })).status).toBe(429)
    expect((await gateway.handle(request(flow, { headers: { 'x-api-key': 'team-b' } }))).status).toBe(200)
    for (let i = 0; i < 3; i++) expect((await gateway.handle(request(flow))).status).toBe(200)
  })

  it('limits nothing unless asked to', async () => {
    const gateway = gatewayWith(undefined)
    for (let i = 0; i < 5; i++) {
      const res = await gateway.handle(request(flow, { clientAddress: '192.0.2.9' }))
      expect(res.status).toBe(200)
      expect(res.headers['ratelimit-policy']).toBeUndefined()
    }
  })
})

async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}
const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers }).then((res) => res.status)
const one = { quota: { requests: 1, windowSeconds: 60 } }

describe('the client key each adapter reports', () => {
  it('Express: req.ip, which follows X-Forwarded-For only when trust proxy says so', async () => {
    const trusting = express()
    trusting.set('trust proxy', 'loopback')
    trusting.use(createExpressMiddleware(gatewayWith(one)))
    const base = await listen(trusting)
    expect(await get(`${base}${flow}`, { 'x-forwarded-for': '203.0.113.1' })).toBe(200)
    expect(await get(`${base}${flow}`, { 'x-forwarded-for': '203.0.113.2' })).toBe(200)
    expect(await get(`${base}${flow}`, { 'x-forwarded-for': '203.0.113.2' })).toBe(429)

    const direct = express()
    direct.use(createExpressMiddleware(gatewayWith(one)))
    const plain = await listen(direct)
    expect(await get(`${plain}${flow}`, { 'x-forwarded-for': '203.0.113.1' })).toBe(200)
    // Without trust proxy a forged header changes nothing: the socket's address counts.
    expect(await get(`${plain}${flow}`, { 'x-forwarded-for': '203.0.113.2' })).toBe(429)
  })

  it('Koa: ctx.ip, which follows X-Forwarded-For only with app.proxy', async () => {
    const trusting = new Koa({ proxy: true })
    trusting.use(createKoaMiddleware(gatewayWith(one)))
    const base = await listen(trusting.callback())
    expect(await get(`${base}${flow}`, { 'x-forwarded-for': '203.0.113.1' })).toBe(200)
    expect(await get(`${base}${flow}`, { 'x-forwarded-for': '203.0.113.2' })).toBe(200)
    expect(await get(`${base}${flow}`, { 'x-forwarded-for': '203.0.113.2' })).toBe(429)

    const direct = new Koa()
    direct.use(createKoaMiddleware(gatewayWith(one)))
    const plain = await listen(direct.callback())
    expect(await get(`${plain}${flow}`, { 'x-forwarded-for': '203.0.113.1' })).toBe(200)
    expect(await get(`${plain}${flow}`, { 'x-forwarded-for': '203.0.113.2' })).toBe(429)
  })

  for (const flavour of ['v1', 'v2', 'alb'] as const) {
    it(`Lambda ${flavour}: the source IP AWS reports, not a header the client sent`, async () => {
      const server = await startLambdaEventServer(createLambdaHandler(gatewayWith(one)) as never, { flavour })
      try {
        expect(await get(`${server.url}${flow}`, { 'x-forwarded-for': '203.0.113.1' })).toBe(200)
        expect(await get(`${server.url}${flow}`, { 'x-forwarded-for': '203.0.113.2' })).toBe(429)
      } finally {
        await server.close()
      }
    })
  }
})

describe('a Redis client given to the gateway', () => {
  it('is listened to: its error events end no process, and reach onError once per outage as shared-state, naming what goes on in process', async () => {
    class DroppedClient extends EventEmitter {
      isOpen = true
      isReady = false
      async set(): Promise<never> {
        throw new Error('nothing may be sent to a client that is not connected')
      }
      eval = this.set
      get = this.set
      del = this.set
    }
    const redis = new DroppedClient()
    const reports: [string, string][] = []
    const gateway = createGateway({
      sources: [statnett()],
      upstreams: { statnett: { baseUrl: fake.baseUrl } },
      rateLimit: { redis },
      sharedFlight: { redis },
      onError: (error, kind) => reports.push([kind, String(error)]),
    })
    expect(() => {
      redis.emit('error', new Error('Socket closed unexpectedly'))
      redis.emit('error', new Error('Socket closed unexpectedly'))
    }).not.toThrow()
    for (let i = 0; i < 3; i++)
      expect(
        (await gateway.handle(request(flow, { query: `area=NO${i + 1}`, clientAddress: '198.51.100.4' }))).status,
      ).toBe(200)
    expect(reports).toEqual([
      ['shared-state', 'Error: Socket closed unexpectedly'],
      [
        'shared-state',
        'RedisNotConnectedError: Redis is not connected: rate limits are counted in process and each instance calls its upstreams alone until it is back',
      ],
    ])
  })
})
