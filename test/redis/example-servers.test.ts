import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FakeUpstream } from '@allmenning/core/testing'
import { startFakeStatnett } from '@allmenning/sources/statnett/testing'
import { bundleExample, startBundled, type BundledProcess } from '../support/bundled-process.js'
import { offlineEnvironment } from '../support/offline-environment.js'
import { redisServerAvailable, startRedisServer, type RedisServer } from './redis-server.js'

// CI installs redis-server and must run this suite; elsewhere it is skipped when there is none.
const available = redisServerAvailable()
if (!available && process.env.CI) throw new Error('redis-server is not installed, and CI must run the Redis suite')

/*
 * The example servers as deployed with REDIS_URL and nothing else written: two processes share
 * the cache and the rate-limit counts through the redis-server the test starts, and a Redis
 * killed under them costs them no answer. ALLMENNING_TRUST_PROXY=on lets each part of the test
 * be a client of its own (X-Forwarded-For), as clients behind a load balancer are.
 */
describe.skipIf(!available).each(['express-server', 'koa-server'] as const)(
  'two %s processes on one REDIS_URL',
  (example) => {
    let redis: RedisServer
    let statnett: FakeUpstream
    const processes: BundledProcess[] = []
    let a: BundledProcess
    let b: BundledProcess

    const get = async (instance: BundledProcess, path: string, client: string) => {
      const res = await fetch(`${instance.baseUrl}${path}`, { headers: { 'x-forwarded-for': client } })
      return {
        status: res.status,
        cacheStatus: res.headers.get('cache-status'),
        retryAfter: res.headers.get('retry-after'),
        body: await res.text(),
      }
    }

    beforeAll(async () => {
      redis = await startRedisServer()
      statnett = await startFakeStatnett()
      const bundle = await bundleExample(example)
      const env = offlineEnvironment({
        ALLMENNING_UPSTREAM_STATNETT: statnett.baseUrl,
        REDIS_URL: redis.url,
        ALLMENNING_RATE_LIMIT: '5/60',
        ALLMENNING_TRUST_PROXY: 'on',
      })
      a = await startBundled(bundle, env)
      processes.push(a)
      b = await startBundled(bundle, env)
      processes.push(b)
    }, 60_000)
    afterAll(async () => {
      for (const p of processes) p.child.kill('SIGKILL')
      await Promise.all(processes.map((p) => p.exited))
      await statnett?.close()
      await redis?.stop()
    })

    it('share the cache: an answer one stored is a hit in the other', { timeout: 20_000 }, async () => {
      const path = '/api/v1/kilder/statnett/get_physical_flow?area=NO1&limit=2'
      // The client connects without being awaited: ask until the first answer is stored in Redis.
      let hit: Awaited<ReturnType<typeof get>> | undefined
      for (let attempt = 0; attempt < 40 && !hit; attempt++) {
        expect((await get(a, path, `198.51.100.${attempt + 1}`)).status).toBe(200)
        const other = await get(b, path, `198.51.100.${attempt + 101}`)
        if (/; hit/.test(other.cacheStatus ?? '')) hit = other
        else await new Promise((resolve) => setTimeout(resolve, 200))
      }
      expect(hit, 'the second process never answered from what the first stored').toBeDefined()
      expect(hit!.status).toBe(200)
    })

    it('share the rate limit: one client gets its quota once across both', { timeout: 20_000 }, async () => {
      const client = '203.0.113.50'
      const statuses = []
      for (const instance of [a, b, a, b, a]) statuses.push((await get(instance, '/api/v1/', client)).status)
      expect(statuses).toEqual([200, 200, 200, 200, 200])
      const overInA = await get(a, '/api/v1/', client)
      const overInB = await get(b, '/api/v1/', client)
      expect([overInA.status, overInB.status]).toEqual([429, 429])
      expect(Number(overInB.retryAfter)).toBeGreaterThan(0)
    })

    it('stay up and answer when Redis is killed', { timeout: 20_000 }, async () => {
      await redis.stop()
      await new Promise((resolve) => setTimeout(resolve, 1000))
      for (const [n, instance] of [a, b].entries()) {
        expect(
          (await get(instance, '/api/v1/kilder/statnett/get_physical_flow?area=NO2&limit=1', `192.0.2.${n + 1}`))
            .status,
        ).toBe(200)
        expect((await get(instance, '/api/v1/', `192.0.2.${n + 1}`)).status).toBe(200)
      }
      await new Promise((resolve) => setTimeout(resolve, 2500))
      for (const instance of [a, b]) {
        expect([instance.child.exitCode, instance.child.signalCode]).toEqual([null, null])
        expect((await get(instance, '/api/v1/kilder/statnett/get_power_situation', '192.0.2.9')).status).toBe(200)
        // The client's own listener heard the outage; nothing else ended the process.
        expect(instance.output()).toMatch(/^Redis: \S/m)
      }
    })
  },
)
