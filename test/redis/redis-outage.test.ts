import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FakeUpstream } from '@allmenning/core/testing'
import { startFakeStatnett, statnettJson, statnettPaths } from '@allmenning/sources/statnett/testing'
import { bundleEntry, startBundled, type BundledProcess } from '../support/bundled-process.js'
import { redisServerAvailable, startRedisServer, type RedisServer } from './redis-server.js'
import { getOutcome, startSteadyLoad } from './steady-load.js'

// CI installs redis-server and must run this suite; elsewhere it is skipped when there is none.
const available = redisServerAvailable()
if (!available && process.env.CI) throw new Error('redis-server is not installed, and CI must run the Redis suite')

const flowBody = '[{"OutAreaElspotId":"NO2","InAreaElspotId":"DK1","Value":812.25,"MeasureDate":1771066344000}]'
const flowPath = (limit: number, offset: number) =>
  `/api/v1/kilder/statnett/get_physical_flow?area=NO2&limit=${limit}&offset=${offset}`
/** Longer than any answer may take while Redis is away: a request still open then has hung. */
const hungAfterMs = 2500
const quota = 20

describe.skipIf(!available)(
  'two gateway processes while their one Redis is killed and restarted under load',
  { timeout: 60_000 },
  () => {
    let redis: RedisServer
    let statnett: FakeUpstream
    let a: BundledProcess
    let b: BundledProcess
    let delayMs = 0
    const flowCalls = () => statnett.requests.filter((r) => r.includes('GetFlow')).length

    const get = (instance: BundledProcess, path: string, headers: Record<string, string> = {}, phase = '') =>
      getOutcome(instance.baseUrl, path, { headers, phase, hungAfterMs })

    /**
     * A steady stream: a request every 20 ms, alternating the two processes, half of them new
     * keys (a miss: the cache, the shared flight and the upstream) and half a key asked before
     * (a hit, in process or in Redis), each counted against a client's rate limit.
     */
    const steadyLoad = () =>
      startSteadyLoad(20, (n, phase) => {
        const path = n % 4 < 2 ? flowPath(1 + (n % 100), 1000 + n) : flowPath(1, 0)
        return get(n % 2 === 0 ? a : b, path, { 'x-client': `load-${n % 50}` }, phase)
      })

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
      statnett.route(statnettPaths.flow, () => ({ ...statnettJson(flowBody), delayMs }))
      const bundle = await bundleEntry('test/redis/gateway-process.ts')
      // A quota the steady stream (spread over 50 clients) stays under, and a test reaches at once.
      const env = {
        REDIS_URL: redis.url,
        STATNETT_URL: statnett.baseUrl,
        FLIGHT_LOCK_MS: '1000',
        RATE_LIMIT: String(quota),
      }
      ;[a, b] = await Promise.all([startBundled(bundle, env), startBundled(bundle, env)])
    })
    afterAll(async () => {
      for (const p of [a, b]) p?.child.kill('SIGKILL')
      await Promise.all([a, b].map((p) => p?.exited))
      await statnett?.close()
      await redis?.stop()
    })

    it('stays up and answers every request from its upstream while Redis is gone, and uses Redis again once it is back', async () => {
      const load = steadyLoad()
      await load.sentInPhase(20)
      const marks = [a.output().length, b.output().length]

      load.phase = 'redis killed'
      await redis.stop()
      await load.sentInPhase(40)

      // While Redis is away, limits are still kept, by each instance in its own memory.
      const alone = []
      for (let i = 0; i <= quota; i++) alone.push((await get(a, '/api/v1/', { 'x-client': 'counted-alone' })).status)
      expect(alone).toEqual([...Array(quota).fill(200), 429])

      load.phase = 'redis restarted'
      await redis.restart()
      // Back in use without a restart: an answer one process stored is a hit in the other, which
      // never had it in its own memory; this can only come through Redis.
      const recoveryStarted = performance.now()
      let recoveredAfterMs: number | undefined
      for (let attempt = 0; recoveredAfterMs === undefined && performance.now() - recoveryStarted < 10_000; attempt++) {
        const path = flowPath(50, 900_000 + attempt)
        await get(a, path)
        await new Promise((resolve) => setTimeout(resolve, 50))
        if ((await get(b, path)).cacheStatus?.startsWith('allmenning; hit'))
          recoveredAfterMs = performance.now() - recoveryStarted
        else await new Promise((resolve) => setTimeout(resolve, 100))
      }
      expect(recoveredAfterMs, 'the cache was not shared again within 10 s of the restart').toBeDefined()
      await load.sentInPhase(10)

      load.phase = 'after'
      await load.sentInPhase(20)
      const outcomes = await load.stop()

      // Both processes are alive, and every request of the stream was answered by the upstream
      // or a cache: no 5xx, no connection refused, none hung.
      expect([a.child.exitCode, a.child.signalCode, b.child.exitCode, b.child.signalCode]).toEqual([
        null,
        null,
        null,
        null,
      ])
      const phases = ['before', 'redis killed', 'redis restarted', 'after']
      for (const phase of phases) expect(outcomes.filter((o) => o.phase === phase).length, phase).toBeGreaterThan(0)
      expect(outcomes.filter((o) => o.status !== 200)).toEqual([])
      const slowest = Math.max(...outcomes.filter((o) => o.phase === 'redis killed').map((o) => o.ms))
      // Well under the gateway's 10 s deadline: a few hundred ms here, but the machine may be busy.
      expect(slowest, outcomes.map((o) => `${o.phase} ${Math.round(o.ms)} ms`).join(', ')).toBeLessThan(2000)

      // Each said so, once per distinct failure rather than once per request.
      for (const [i, instance] of [a, b].entries()) {
        const said = reports(instance, marks[i])
        expect(new Set(said.map((r) => r.onError))).toEqual(new Set(['cache', 'shared-state']))
        expect(said.length).toBeLessThan(outcomes.length / 10)
      }
      console.log(
        `Redis outage under load: ${outcomes.length} requests, all 200; slowest while Redis was gone ${Math.round(slowest)} ms; ` +
          `cache shared again ${Math.round(recoveredAfterMs!)} ms after the restart; reports ${reports(a, marks[0]).length} and ${reports(b, marks[1]).length}`,
      )
    })

    it('counts limits across both processes again after the restart', async () => {
      const answers = []
      for (let i = 0; i < quota + 2; i++)
        answers.push(await get(i % 2 === 0 ? a : b, '/api/v1/', { 'x-client': 'shared-after-restart' }))
      expect(answers.map((r) => r.status)).toEqual([...Array(quota).fill(200), 429, 429])
    })

    it('makes one upstream call again for identical misses spread over both processes', async () => {
      delayMs = 300
      const before = flowCalls()
      try {
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, i) => get(i % 2 === 0 ? a : b, flowPath(77, 77))),
        )
        expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200))
        expect(flowCalls() - before).toBe(1)
      } finally {
        delayMs = 0
      }
    })
  },
)
