import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@redis/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FakeUpstream } from '@allmenning/core/testing'
import { startFakeStatnett } from '@allmenning/sources/statnett/testing'
import { bundleEntry, startBundled, type BundledProcess } from '../support/bundled-process.js'
import { redisServerAvailable, startRedisServer, type RedisServer } from './redis-server.js'
import { getOutcome, startSteadyLoad } from './steady-load.js'

// CI installs redis-server and must run this suite; elsewhere it is skipped when there is none.
const available = redisServerAvailable()
if (!available && process.env.CI) throw new Error('redis-server is not installed, and CI must run the Redis suite')

const root = new URL('../../', import.meta.url)
/** The Redis setup of docs/operating.md: its one TypeScript block that connects a client. */
const recipe = [...readFileSync(new URL('docs/operating.md', root), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)]
  .map((m) => m[1]!)
  .filter((code) => code.includes('connectSharedRedis('))

/**
 * A server around the recipe, unchanged: it only needs `sources` and `createGateway` in
 * scope, and leaves `gateway` for the server to mount. Statnett is the local stand-in, through
 * the environment variable the built-in sources read.
 */
function recipeServer(code: string) {
  return `import { createServer } from 'node:http'
import express from 'express'
import { createExpressMiddleware } from '@allmenning/adapter-express'
import { createGateway } from '@allmenning/core'
import { builtInSources } from '@allmenning/sources'

const sources = builtInSources(process.env)

${code}
const app = express()
app.use(createExpressMiddleware(gateway))
const server = createServer(app)
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log(\`gateway on http://localhost:\${server.address().port}/\`))
`
}

const hungAfterMs = 2500
const flowPath = (limit: number, offset: number) =>
  `/api/v1/kilder/statnett/get_physical_flow?area=NO3&limit=${limit}&offset=${offset}`

describe.skipIf(!available)(
  'the Redis setup of docs/operating.md, as written, when Redis is killed and restarted',
  { timeout: 60_000 },
  () => {
    let redis: RedisServer
    let statnett: FakeUpstream
    let bundle: string
    let env: Record<string, string>
    let dir: string | undefined
    const processes: BundledProcess[] = []

    const start = async () => {
      const started = await startBundled(bundle, env)
      processes.push(started)
      return started
    }
    /** The gateway's cache keys in Redis, read with a client of the test's own. */
    async function cachedKeys(): Promise<string[]> {
      const raw = createClient({ url: redis.url })
      raw.on('error', () => undefined)
      await raw.connect()
      try {
        return await raw.keys('allmenning:v1:statnett:*')
      } finally {
        raw.destroy()
      }
    }
    /** Waits (10 s at most) until asking `path` of `instance` leaves an entry for it in Redis. */
    async function storesInRedis(instance: BundledProcess, path: (attempt: number) => string) {
      const started = performance.now()
      for (let attempt = 0; performance.now() - started < 10_000; attempt++) {
        const asked = path(attempt)
        const offset = new URL(asked, 'http://x').searchParams.get('offset')!
        await getOutcome(instance.baseUrl, asked, { hungAfterMs })
        await new Promise((resolve) => setTimeout(resolve, 100))
        const keys = await cachedKeys().catch(() => [])
        if (keys.some((key) => key.includes(`"offset":${offset}`))) return performance.now() - started
      }
      return undefined
    }

    beforeAll(async () => {
      expect(recipe).toHaveLength(1)
      redis = await startRedisServer()
      statnett = await startFakeStatnett()
      // Outside the repository: a file of the test's making, not one to commit or type-check.
      dir = mkdtempSync(join(tmpdir(), 'allmenning-readme-recipe-'))
      const entry = join(dir, 'server.ts')
      writeFileSync(entry, recipeServer(recipe[0]!))
      bundle = await bundleEntry(entry)
      env = { REDIS_URL: redis.url, ALLMENNING_UPSTREAM_STATNETT: statnett.baseUrl }
    })
    afterAll(async () => {
      for (const p of processes) p.child.kill('SIGKILL')
      await Promise.all(processes.map((p) => p.exited))
      await statnett?.close()
      await redis?.stop()
      if (dir) rmSync(dir, { recursive: true, force: true })
    })

    it('keeps the process up and answering while Redis is gone, and caches in Redis again once it is back', async () => {
      const gateway = await start()
      expect(
        await storesInRedis(gateway, (i) => flowPath(2, 100 + i)),
        'the recipe never stored an answer in Redis',
      ).toBeDefined()

      const load = startSteadyLoad(40, (n, phase) =>
        getOutcome(gateway.baseUrl, flowPath(1 + (n % 3), n % 2 === 0 ? 0 : 5000 + n), { phase, hungAfterMs }),
      )
      await load.sentInPhase(10)
      load.phase = 'redis killed'
      await redis.stop()
      await load.sentInPhase(20)

      // Started while Redis is down: it serves all the same.
      const late = await start()
      const lateAnswer = await getOutcome(late.baseUrl, flowPath(3, 3), { hungAfterMs })
      expect(lateAnswer.status).toBe(200)

      load.phase = 'redis restarted'
      await redis.restart()
      // Both use Redis again without a restart, the one started during the outage too.
      expect(
        await storesInRedis(gateway, (i) => flowPath(4, 200 + i)),
        'the recipe did not store in Redis again within 10 s',
      ).toBeDefined()
      expect(
        await storesInRedis(late, (i) => flowPath(5, 300 + i)),
        'the process started during the outage never used Redis',
      ).toBeDefined()
      const outcomes = await load.stop()

      for (const p of [gateway, late]) expect([p.child.exitCode, p.child.signalCode]).toEqual([null, null])
      expect(outcomes.filter((o) => o.phase === 'redis killed').length).toBeGreaterThan(0)
      expect(outcomes.filter((o) => o.status !== 200)).toEqual([])
      // Well under the gateway's 10 s deadline: a few hundred ms here, but the machine may be busy.
      const slowest = Math.max(...outcomes.map((o) => o.ms))
      expect(slowest, outcomes.map((o) => `${o.phase} ${Math.round(o.ms)} ms`).join(', ')).toBeLessThan(2000)
      // The recipe's own listener heard the outage.
      expect(gateway.output()).toMatch(/^Redis: \S/m)
    })
  },
)
