import { createClient } from '@redis/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FakeUpstream } from '@allmenning/core/testing'
import { startFakeStatnett, statnettJson, statnettPaths } from '@allmenning/sources/statnett/testing'
import { bundleEntry, startBundled, type BundledProcess } from '../support/bundled-process.js'
import { redisServerAvailable, startRedisServer, type RedisServer } from './redis-server.js'

// CI installs redis-server and must run this suite; elsewhere it is skipped when there is none.
const available = redisServerAvailable()
if (!available && process.env.CI) throw new Error('redis-server is not installed, and CI must run the Redis suite')

const lockMs = 1000
const flowBody = '[{"OutAreaElspotId":"NO1","InAreaElspotId":"SE3","Value":-1234.5,"MeasureDate":1771062744000}]'

describe.skipIf(!available)('two gateway processes sharing one redis-server', { timeout: 30_000 }, () => {
  let redis: RedisServer
  let statnett: FakeUpstream
  let bundle: string
  let env: Record<string, string>
  const processes: BundledProcess[] = []
  let a: BundledProcess
  let b: BundledProcess
  /** How long the fake Statnett takes over the next calls; a list is used up first to last. */
  let delays: number[] = []
  let delayMs = 0

  const start = async () => {
    const started = await startBundled(bundle, env)
    processes.push(started)
    return started
  }
  const flowCalls = () => statnett.requests.filter((r) => r.includes('GetFlow')).length
  async function get(instance: BundledProcess, path: string, headers: Record<string, string> = {}) {
    const started = performance.now()
    const res = await fetch(`${instance.baseUrl}${path}`, { headers })
    return { status: res.status, headers: res.headers, body: await res.text(), ms: performance.now() - started }
  }
  /** The onError reports a process printed since `from` characters of its output. */
  const reports = (instance: BundledProcess, from = 0) =>
    instance
      .output()
      .slice(from)
      .split('\n')
      .filter((line) => line.startsWith('{"onError"'))
      .map((line) => JSON.parse(line) as { onError: string; message: string })

  beforeAll(async () => {
    redis = await startRedisServer()
    statnett = await startFakeStatnett()
    statnett.route(statnettPaths.flow, () => ({ ...statnettJson(flowBody), delayMs: delays.shift() ?? delayMs }))
    bundle = await bundleEntry('test/redis/gateway-process.ts')
    env = { REDIS_URL: redis.url, STATNETT_URL: statnett.baseUrl, FLIGHT_LOCK_MS: String(lockMs), RATE_LIMIT: '10' }
    ;[a, b] = await Promise.all([start(), start()])
  })
  afterAll(async () => {
    for (const p of processes) p.child.kill('SIGKILL')
    await Promise.all(processes.map((p) => p.exited))
    await statnett.close()
    await redis.stop()
  })

  it('answers the second process from what the first stored, with the same ETag', async () => {
    const before = flowCalls()
    const first = await get(a, '/api/v1/kilder/statnett/get_physical_flow?area=NO1&limit=1')
    const second = await get(b, '/api/v1/kilder/statnett/get_physical_flow?area=NO1&limit=1')
    expect(first.headers.get('cache-status')).toBe('allmenning; fwd=miss; stored')
    expect(second.headers.get('cache-status')).toMatch(/^allmenning; hit; ttl=\d+$/)
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'))
    expect(second.body).toBe(first.body)
    expect(flowCalls() - before).toBe(1)
  })

  it("counts one client's requests once across both processes: the 11th of a quota of 10 is a 429 wherever it lands", async () => {
    const answers = []
    for (let i = 0; i < 12; i++)
      answers.push(await get(i % 2 === 0 ? a : b, '/api/v1/', { 'x-client': 'shared-quota' }))
    expect(answers.map((r) => r.status)).toEqual([...Array(10).fill(200), 429, 429])
    // Remaining requests count down across the two processes: 9, 8, ... 0.
    expect(answers.slice(0, 10).map((r) => /r=(\d+)/.exec(r.headers.get('ratelimit')!)![1])).toEqual([
      '9',
      '8',
      '7',
      '6',
      '5',
      '4',
      '3',
      '2',
      '1',
      '0',
    ])
    expect(answers[10]!.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(JSON.parse(answers[11]!.body).error).toMatchObject({ status: 429, code: 'rate_limited' })
    // Another client has its own quota.
    expect((await get(b, '/api/v1/', { 'x-client': 'someone-else' })).status).toBe(200)
  })

  it('makes one upstream call for 50 identical concurrent misses spread over both processes', async () => {
    delayMs = 300
    const before = flowCalls()
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        get(i % 2 === 0 ? a : b, '/api/v1/kilder/statnett/get_physical_flow?area=NO1&limit=2'),
      ),
    )
    delayMs = 0
    expect(answers.map((r) => r.status)).toEqual(Array(50).fill(200))
    expect(flowCalls() - before).toBe(1)
    expect(new Set(answers.map((r) => r.body)).size).toBe(1)
    expect(new Set(answers.map((r) => r.headers.get('etag'))).size).toBe(1)
    const statuses = answers.map((r) => r.headers.get('cache-status'))
    expect(statuses.filter((s) => s === 'allmenning; fwd=miss; stored')).toHaveLength(1)
    expect(statuses.filter((s) => s === 'allmenning; fwd=miss; collapsed')).toHaveLength(49)
  })

  it('is not blocked beyond the lock time by a process that died holding the lock', async () => {
    const doomed = await start()
    delays = [5000]
    const before = flowCalls()
    const orphan = get(doomed, '/api/v1/kilder/statnett/get_physical_flow?area=NO1&limit=3').catch(() => undefined)
    while (flowCalls() === before) await new Promise((resolve) => setTimeout(resolve, 10))
    doomed.child.kill('SIGKILL')
    await doomed.exited
    await orphan
    const answer = await get(b, '/api/v1/kilder/statnett/get_physical_flow?area=NO1&limit=3')
    expect(answer.status).toBe(200)
    expect(flowCalls() - before).toBe(2)
    // It waited for the dead holder's lock, which lives at most `lockMs` after its last renewal...
    expect(answer.ms).toBeGreaterThan(lockMs / 3)
    // ...and no longer: not the 5 s the dead holder's call would have taken.
    expect(answer.ms).toBeLessThan(lockMs + 800)
  })

  it('keeps serving from the upstream while Redis is slow, and says so', async () => {
    const pauser = createClient({ url: redis.url })
    await pauser.connect()
    const mark = [a.output().length, b.output().length]
    try {
      // Every Redis command of every client waits 2.5 s.
      await pauser.sendCommand(['CLIENT', 'PAUSE', '2500', 'ALL'])
      const before = flowCalls()
      const [fromA, fromB] = await Promise.all([
        get(a, '/api/v1/kilder/statnett/get_physical_flow?area=NO1&limit=4', { 'x-client': 'slow-redis' }),
        get(b, '/api/v1/kilder/statnett/get_physical_flow?area=NO1&limit=5', { 'x-client': 'slow-redis' }),
      ])
      for (const answer of [fromA, fromB]) {
        expect(answer.status).toBe(200)
        expect(answer.ms).toBeLessThan(2000)
      }
      expect(flowCalls() - before).toBe(2)
      for (const [i, instance] of [a, b].entries()) {
        const kinds = new Set(reports(instance, mark[i]).map((r) => r.onError))
        expect(kinds).toEqual(new Set(['cache', 'shared-state']))
      }
    } finally {
      await pauser.sendCommand(['CLIENT', 'UNPAUSE']).catch(() => undefined)
      pauser.destroy()
    }
  })

  it('keeps serving from the upstream when Redis is gone, and says so', async () => {
    await redis.stop()
    const mark = [a.output().length, b.output().length]
    const before = flowCalls()
    const [fromA, fromB] = await Promise.all([
      get(a, '/api/v1/kilder/statnett/get_physical_flow?area=NO1&limit=6', { 'x-client': 'no-redis' }),
      get(b, '/api/v1/kilder/statnett/get_physical_flow?area=NO1&limit=7', { 'x-client': 'no-redis' }),
    ])
    for (const answer of [fromA, fromB]) {
      expect(answer.status).toBe(200)
      expect(answer.ms).toBeLessThan(2000)
    }
    expect(flowCalls() - before).toBe(2)
    for (const [i, instance] of [a, b].entries()) {
      const kinds = new Set(reports(instance, mark[i]).map((r) => r.onError))
      expect(kinds).toContain('shared-state')
      expect(kinds).toContain('cache')
    }
  })
})
