import type KeyvRedis from '@keyv/redis'
import { createKeyv } from '@keyv/redis'
import { createClient } from '@redis/client'
import type Keyv from 'keyv'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, type Gateway } from '@allmenning/core'
import { statnett } from '@allmenning/sources'
import { startFakeStatnett, statnettJson, statnettPaths } from '@allmenning/sources/statnett/testing'
import type { FakeUpstream } from '@allmenning/core/testing'
import { redisServerAvailable, startRedisServer, type RedisServer } from './redis-server.js'

// CI installs redis-server and must run this suite; elsewhere it is skipped when there is none.
const available = redisServerAvailable()
if (!available && process.env.CI) throw new Error('redis-server is not installed, and CI must run the Redis suite')
if (!available) console.warn('Skipping the Redis suite: no redis-server on this machine (apt-get install redis-server)')

describe.skipIf(!available)('two gateways sharing one Redis through @keyv/redis', () => {
  let redis: RedisServer
  let fake: FakeUpstream
  const stores: Keyv[] = []
  const errors: unknown[] = []

  // Each gateway is its own process in production: its own in-process hot cache and memo of
  // upstream answers (both off here, so every read goes to Redis and every miss upstream),
  // one shared store.
  const instance = (): Gateway => {
    const store = createKeyv(redis.url)
    stores.push(store)
    return createGateway({
      sources: [statnett()],
      upstreams: { statnett: { baseUrl: fake.baseUrl, timeoutMs: 500 } },
      cache: store,
      hotCacheEntries: 0,
      upstreamAnswerBytes: 0,
      cacheTimeoutMs: 300,
      onError: (error) => errors.push(error),
    })
  }
  const get = (gateway: Gateway, query: string) =>
    gateway.handle({ method: 'GET', path: '/api/v1/kilder/statnett/get_physical_flow', query, headers: {} })
  const upstreamCalls = () => fake.requests.filter((r) => r.includes('GetFlow')).length

  beforeAll(async () => {
    redis = await startRedisServer()
    fake = await startFakeStatnett()
  })
  afterAll(async () => {
    // Forced: a polite QUIT would wait for a server that the last test stopped.
    await Promise.all(
      stores.map((store) => (store.store as KeyvRedis<unknown>).disconnect(true).catch(() => undefined)),
    )
    await fake.close()
    await redis.stop()
  })

  it('answers the second instance from what the first stored, with the same ETag', async () => {
    const [a, b] = [instance(), instance()]
    const first = await get(a, 'area=NO1')
    await new Promise((resolve) => setTimeout(resolve, 50))
    const second = await get(b, 'area=NO1')
    expect(first.headers['cache-status']).toBe('allmenning; fwd=miss; stored')
    expect(second.headers['cache-status']).toMatch(/^allmenning; hit; ttl=\d+$/)
    expect(second.headers.etag).toBe(first.headers.etag)
    expect(second.body).toBe(first.body)
    expect(upstreamCalls()).toBe(1)
  })

  it('serves the shared stale copy from another instance when the upstream fails', async () => {
    const [a, b] = [instance(), instance()]
    const fresh = await get(a, 'area=SE3')
    await new Promise((resolve) => setTimeout(resolve, 50))
    const realNow = Date.now
    Date.now = () => realNow() + 301_000
    fake.route(statnettPaths.flow, () => ({ status: 503, body: 'Service Unavailable' }))
    try {
      const stale = await get(b, 'area=SE3')
      expect(stale.status).toBe(200)
      expect(JSON.parse(stale.body!)._meta).toMatchObject({ stale: true })
      expect(JSON.parse(stale.body!).data).toEqual(JSON.parse(fresh.body!).data)
    } finally {
      Date.now = realNow
      fake.route(statnettPaths.flow, () =>
        statnettJson('[{"OutAreaElspotId":"NO1","InAreaElspotId":"SE3","Value":1,"MeasureDate":0}]'),
      )
    }
  })

  it("never serves what another app wrote under the gateway's key: it is ignored, reported and replaced", async () => {
    const gateway = instance()
    const first = await get(gateway, 'area=FI')
    await new Promise((resolve) => setTimeout(resolve, 50))
    const raw = createClient({ url: redis.url })
    await raw.connect()
    const foreign = createKeyv(redis.url)
    stores.push(foreign)
    try {
      const [key] = await raw.keys('allmenning:v1:statnett:get_physical_flow:*"FI"*')
      expect(key).toBeDefined()
      const mine = (await foreign.get(key!)) as {
        body: string
        bytes: number
        etag: string
        storedAt: number
        ttlSeconds: number
      }
      const html = '<html><script>alert(1)</script></html>'
      const cases: [string, () => Promise<unknown>, RegExp][] = [
        ["a plain string, not in Keyv's format", () => raw.set(key!, 'hello from another app'), /not valid JSON/],
        ['a value of its own', () => foreign.set(key!, { greeting: 'hei' }), /no stored time|body is not text/],
        [
          'an entry-shaped HTML page',
          () => foreign.set(key!, { ...mine, body: html, bytes: html.length }),
          /not a JSON object/,
        ],
        ['our body, edited', () => foreign.set(key!, { ...mine, body: mine.body.replace('"FI"', '"XX"') }), /ETag/],
        [
          'our entry, stored a day from now',
          () => foreign.set(key!, { ...mine, storedAt: Date.now() + 86_400_000 }),
          /in the future/,
        ],
      ]
      for (const [name, write, reason] of cases) {
        await write()
        errors.length = 0
        const calls = upstreamCalls()
        const res = await get(gateway, 'area=FI')
        expect(res.status, name).toBe(200)
        expect(res.body, name).not.toContain('alert(1)')
        expect(res.body, name).not.toContain('"XX"')
        expect(JSON.parse(res.body!).data, name).toEqual(JSON.parse(first.body!).data)
        expect(res.headers['cache-status'], name).toBe('allmenning; fwd=miss; stored')
        expect(upstreamCalls(), name).toBe(calls + 1)
        expect(errors, name).toHaveLength(1)
        expect(String(errors[0]), name).toMatch(reason)
      }
      // Each time, the gateway's own answer took the key back.
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect((await get(gateway, 'area=FI')).headers['cache-status']).toMatch(/^allmenning; hit/)
    } finally {
      raw.destroy()
    }
  })

  it('keeps answering when Redis goes away, and reports it', async () => {
    const gateway = instance()
    expect((await get(gateway, 'area=DK1')).status).toBe(200)
    await redis.stop()
    const started = performance.now()
    const res = await get(gateway, 'area=DK2')
    expect(res.status).toBe(200)
    expect(performance.now() - started).toBeLessThan(3000)
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(errors.length).toBeGreaterThan(0)
  })
})
