import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { cacheEntry } from '../pipeline/cached-answer.js'
import type { CachedResponse } from './cached-response.js'
import { createSharedFlight } from './shared-flight.js'
import type { SharedRedisClient } from './shared-redis-client.js'

/** Redis's SET NX PX and the two compare-and-act scripts, in memory, with a switch to fail every command. */
function memoryRedis() {
  const values = new Map<string, { value: string; until: number }>()
  const live = (key: string) => {
    const held = values.get(key)
    if (held && held.until <= Date.now()) values.delete(key)
    return values.get(key)
  }
  const state = { failing: false }
  const check = () => {
    if (state.failing) throw new Error('connection refused')
  }
  const client: SharedRedisClient = {
    async set(key, value, options) {
      check()
      if (live(key)) return null
      values.set(key, { value, until: Date.now() + options.PX })
      return 'OK'
    },
    async eval(script, { keys, arguments: args }) {
      check()
      const held = live(keys[0]!)
      if (!held || held.value !== args[0]) return 0
      if (script.includes('pexpire')) held.until = Date.now() + Number(args[1])
      else values.delete(keys[0]!)
      return 1
    },
    async get(key) {
      check()
      return live(key)?.value ?? null
    },
    async del(key) {
      check()
      for (const k of [key].flat()) values.delete(k)
      return 1
    },
  }
  return { client, state, values }
}

const answer = cacheEntry({ data: 'made' }, 60)
const never = new AbortController().signal

describe('createSharedFlight', () => {
  it('lets one of two instances make the call; the other reads what it stored', async () => {
    const redis = memoryRedis()
    const errors: unknown[] = []
    const [one, two] = [
      createSharedFlight({ redis: redis.client }, (e) => errors.push(e)),
      createSharedFlight({ redis: redis.client }, (e) => errors.push(e)),
    ]
    let store: CachedResponse | undefined
    let calls = 0
    const work = {
      produce: async () => {
        calls++
        await new Promise((resolve) => setTimeout(resolve, 100))
        store = answer
        return answer
      },
      read: async () => store,
      signal: never,
    }
    const results = await Promise.all([one.run('k', work), two.run('k', work)])
    expect(calls).toBe(1)
    expect(results.map((r) => r.shared).sort()).toEqual([false, true])
    expect(results.every((r) => r.value === answer)).toBe(true)
    // The lock is released once the answer is stored.
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(redis.values.size).toBe(0)
    expect(errors).toEqual([])
  })

  it('takes the lock over when the holder releases it without an answer (its upstream failed)', async () => {
    const redis = memoryRedis()
    const flight = createSharedFlight({ redis: redis.client }, () => undefined)
    let calls = 0
    const failing = flight.run('k', {
      produce: async () => {
        calls++
        await new Promise((resolve) => setTimeout(resolve, 50))
        throw new Error('upstream 503')
      },
      read: async () => undefined,
      signal: never,
    })
    const waiting = flight.run('k', {
      produce: async () => (calls++, answer),
      read: async () => undefined,
      signal: never,
    })
    await expect(failing).rejects.toThrow('upstream 503')
    expect(await waiting).toEqual({ value: answer, shared: false })
    expect(calls).toBe(2)
  })

  it('stops waiting at the deadline and runs the call itself, which then fails fast', async () => {
    const redis = memoryRedis()
    const flight = createSharedFlight({ redis: redis.client }, () => undefined)
    const started = performance.now()
    let ran = false
    // Another instance holds the lock of 'k' (a digest of the cache key) and keeps it.
    await redis.client.set(`allmenning:flight:${createHash('sha1').update('k').digest('base64url')}`, 'someone', {
      NX: true,
      PX: 60_000,
    })
    const result = await flight.run('k', {
      produce: async () => ((ran = true), answer),
      read: async () => undefined,
      signal: AbortSignal.timeout(150),
    })
    expect(ran).toBe(true)
    expect(result.shared).toBe(false)
    expect(performance.now() - started).toBeLessThan(400)
  })

  it('runs the call itself when Redis fails, and reports it', async () => {
    const redis = memoryRedis()
    redis.state.failing = true
    const errors: unknown[] = []
    const flight = createSharedFlight({ redis: redis.client }, (e) => errors.push(e))
    expect(await flight.run('k', { produce: async () => answer, read: async () => undefined, signal: never })).toEqual({
      value: answer,
      shared: false,
    })
    expect(String(errors[0])).toContain('connection refused')
  })

  it('runs the call itself when Redis is slower than its time limit, and reports it', async () => {
    const redis = memoryRedis()
    const slow: SharedRedisClient = { ...redis.client, set: () => new Promise(() => undefined) }
    const errors: unknown[] = []
    const flight = createSharedFlight({ redis: slow, timeoutMs: 50 }, (e) => errors.push(e))
    const started = performance.now()
    expect(
      (await flight.run('k', { produce: async () => answer, read: async () => undefined, signal: never })).value,
    ).toBe(answer)
    expect(performance.now() - started).toBeLessThan(300)
    expect(String(errors[0])).toMatch(/did not take a single-flight lock within 50 ms/)
  })

  it('sends nothing while the client is not connected: the call runs here at once, said once, and is shared again once it is back', async () => {
    const redis = memoryRedis()
    let sent = 0
    let ready = false
    const count =
      <A extends unknown[], R>(command: (...args: A) => R) =>
      (...args: A) => (sent++, command(...args))
    const { set, eval: run, get, del } = redis.client
    const counted: SharedRedisClient = {
      get isReady() {
        return ready
      },
      set: count(set),
      eval: count(run),
      get: count(get),
      del: count(del),
    }
    const errors: unknown[] = []
    const flight = createSharedFlight({ redis: counted }, (e) => errors.push(e))
    const work = { produce: async () => answer, read: async () => undefined, signal: never }
    for (let i = 0; i < 3; i++) expect(await flight.run('k', work)).toEqual({ value: answer, shared: false })
    expect(sent).toBe(0)
    expect(errors.map(String)).toEqual([
      'RedisNotConnectedError: Redis is not connected: each instance calls its upstreams alone until it is back',
    ])
    ready = true
    await flight.run('k', work)
    // Its lock taken, and released.
    expect(sent).toBe(2)
  })
})
