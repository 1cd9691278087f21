import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createGateway, type GatewayOptions } from '@allmenning/core'
import { statnett } from '@allmenning/sources'
import type { FakeUpstream } from '@allmenning/core/testing'
import { startFakeStatnett, statnettJson, statnettPaths } from '@allmenning/sources/statnett/testing'

let fake: FakeUpstream
const flowRows = '[{"OutAreaElspotId":"NO1","InAreaElspotId":"SE3","Value":-1234.5,"MeasureDate":1771062744000}]'
beforeAll(async () => {
  fake = await startFakeStatnett()
})
afterAll(() => fake.close())
beforeEach(() => {
  fake.route(statnettPaths.flow, () => statnettJson(flowRows))
  fake.requests.length = 0
})

const gatewayWith = (upstream: GatewayOptions['upstream'] = {}) =>
  createGateway({
    sources: [statnett()],
    upstreams: { statnett: { baseUrl: fake.baseUrl, timeoutMs: 2000 } },
    upstream,
    onError: () => {},
  })
const flow = (gateway: ReturnType<typeof gatewayWith>, area: string) =>
  gateway.handle({
    method: 'GET',
    path: '/api/v1/kilder/statnett/get_physical_flow',
    query: `area=${area}`,
    headers: {},
  })
const calls = () => fake.requests.filter((r) => r.includes('GetFlow')).length
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('a circuit breaker per upstream', () => {
  it('stops calling an upstream after failures in a row, answers 502 upstream_resting, and probes it later', async () => {
    const gateway = gatewayWith({ breakAfterFailures: 3, restSeconds: 0.3 })
    fake.route(statnettPaths.flow, () => ({ status: 503, body: 'Service Unavailable' }))
    for (const area of ['NO1', 'NO2', 'NO3']) expect((await flow(gateway, area)).status).toBe(502)
    expect(calls()).toBe(3)
    const rested = await flow(gateway, 'NO4')
    expect(calls()).toBe(3)
    expect(rested.status).toBe(502)
    expect(rested.headers['retry-after']).toMatch(/^\d+$/)
    const error = JSON.parse(rested.body!).error
    expect(error).toMatchObject({ code: 'upstream_resting', upstream: 'statnett' })
    expect(error.message).toMatch(/failed 3 times in a row and is being given a rest/)

    fake.route(statnettPaths.flow, () => statnettJson(flowRows))
    await sleep(350)
    expect((await flow(gateway, 'NO5')).status).toBe(200)
    expect(calls()).toBe(4)
    expect((await flow(gateway, 'SE1')).status).toBe(200)
  })

  it('serves the stale copy it has while the upstream rests, without calling it', async () => {
    const gateway = gatewayWith({ breakAfterFailures: 2, restSeconds: 3600 })
    expect((await flow(gateway, 'NO1')).status).toBe(200)
    fake.route(statnettPaths.flow, () => ({ status: 500, body: '' }))
    const realNow = Date.now
    // Five minutes on, the copy of NO1 and the upstream answer it came from are no longer
    // fresh, so the other areas call the upstream (and fail) rather than share that answer.
    Date.now = () => realNow() + 301_000
    try {
      expect((await flow(gateway, 'NO2')).status).toBe(502)
      expect((await flow(gateway, 'NO3')).status).toBe(502)
      const before = calls()
      const stale = await flow(gateway, 'NO1')
      expect(calls()).toBe(before)
      expect(stale.status).toBe(200)
      expect(JSON.parse(stale.body!)._meta).toMatchObject({
        stale: true,
        stale_reason: expect.stringContaining('being given a rest'),
      })
    } finally {
      Date.now = realNow
    }
  })
})

describe("an upstream's Retry-After", () => {
  it('is honoured: no call until the pause is over, and the 502 says when to come back', async () => {
    const gateway = gatewayWith()
    fake.route(statnettPaths.flow, () => ({ status: 429, headers: { 'retry-after': '30' }, body: '' }))
    const first = await flow(gateway, 'NO1')
    expect(JSON.parse(first.body!).error.message).toMatch(/rate limited the gateway and asked for a pause of 30 s/)
    fake.route(statnettPaths.flow, () => statnettJson(flowRows))
    const second = await flow(gateway, 'NO2')
    expect(calls()).toBe(1)
    expect(second.status).toBe(502)
    expect(JSON.parse(second.body!).error).toMatchObject({
      code: 'upstream_resting',
      message: expect.stringContaining('Retry-After'),
    })
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(25)
    expect(Number(second.headers['retry-after'])).toBeLessThanOrEqual(30)
  })

  it('is honoured as an HTTP date on a 503', async () => {
    const gateway = gatewayWith()
    const at = new Date(Date.now() + 20_000).toUTCString()
    fake.route(statnettPaths.flow, () => ({ status: 503, headers: { 'retry-after': at }, body: '' }))
    await flow(gateway, 'NO1')
    fake.route(statnettPaths.flow, () => statnettJson(flowRows))
    expect(JSON.parse((await flow(gateway, 'NO2')).body!).error.code).toBe('upstream_resting')
    expect(calls()).toBe(1)
  })
})

describe('at most N calls in flight per upstream', () => {
  it('queues calls beyond the limit, and refuses them once the queue is full too', async () => {
    let inFlight = 0
    let peak = 0
    fake.route(statnettPaths.flow, async () => {
      inFlight++
      peak = Math.max(peak, inFlight)
      await sleep(150)
      inFlight--
      return statnettJson(flowRows)
    })
    const gateway = gatewayWith({ maxConcurrent: 2 })
    const answers = await Promise.all(['NO1', 'NO2', 'NO3', 'NO4', 'NO5', 'SE1'].map((area) => flow(gateway, area)))
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200])
    expect(peak).toBe(2)

    const tight = gatewayWith({ maxConcurrent: 1, maxQueued: 1 })
    const statuses = await Promise.all(['NO1', 'NO2', 'NO3'].map((area) => flow(tight, area)))
    const busy = statuses.filter((a) => a.status === 502)
    expect(busy).toHaveLength(1)
    expect(JSON.parse(busy[0]!.body!).error).toMatchObject({ code: 'upstream_busy', upstream: 'statnett' })
  })
})

describe('one retry for a call that failed to connect', () => {
  it('tries a dropped connection once more, and a 503 not at all', async () => {
    let attempts = 0
    fake.route(statnettPaths.flow, () => (++attempts === 1 ? { destroy: true } : statnettJson(flowRows)))
    expect((await flow(gatewayWith(), 'NO1')).status).toBe(200)
    expect(calls()).toBe(2)

    fake.route(statnettPaths.flow, () => ({ status: 503, body: '' }))
    expect((await flow(gatewayWith(), 'NO2')).status).toBe(502)
    expect(calls()).toBe(3)
  })

  it('does not retry when told not to', async () => {
    fake.route(statnettPaths.flow, () => ({ destroy: true }))
    expect((await flow(gatewayWith({ retryConnect: false }), 'NO1')).status).toBe(502)
    expect(calls()).toBe(1)
  })
})
