import type { CachedResponse } from './cached-response.js'
import { createRedisOutage, type RedisOutage } from './redis-outage.js'
import type { SharedRedisClient } from './shared-redis-client.js'

/** The `sharedFlight` option of `createGateway`. */
export interface SharedFlightOptions {
  /** A connected node-redis client; every instance that shares the cache should use the same Redis. */
  redis: SharedRedisClient
  /** Prefix of the lock keys; `allmenning:flight` by default. */
  prefix?: string
  /**
   * How long a lock lives unless its holder renews it (it does, a third of the way through,
   * while its call runs): the longest an instance that died holding one keeps others
   * waiting. 2000 ms by default.
   */
  lockMs?: number
  /** Time limit of one Redis command, in milliseconds; 200 by default. */
  timeoutMs?: number
}

/** What one shared flight needs from the caller. */
export interface SharedFlightWork {
  /** Makes the answer and stores it where `read` finds it; runs in the instance that holds the lock. */
  produce(): Promise<CachedResponse>
  /** A fresh answer in the shared cache, if another instance has stored one. */
  read(): Promise<CachedResponse | undefined>
  /** The request's deadline: once it aborts, waiting stops and `produce` runs here (and fails fast). */
  signal: AbortSignal
}

/**
 * One call per key across every instance on a Redis. See {@link createSharedFlight}.
 *
 * @example
 * const { value, shared } = await flight.run(key, { produce, read, signal: deadline.signal })
 */
export interface SharedFlight {
  /** `shared` is true when another instance made the answer. */
  run(key: string, work: SharedFlightWork): Promise<{ value: CachedResponse; shared: boolean }>
}

// Renews or releases the lock only while it is still ours: a holder that was too slow and
// lost it must not touch the next holder's.
const renewScript = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0`
const releaseScript = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`

/** Waits `ms`, or less when `signal` aborts first. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done, { once: true })
  })
}

/**
 * A single flight shared through Redis: of the instances that miss the same key at once, the
 * one that takes a short lock (`SET NX PX`) makes the upstream call and stores the answer;
 * the others poll the shared cache (every 20 ms at first, at most every 200 ms) until that
 * answer is there, taking the lock themselves if it is released without one or expires. A
 * wait lasts at most the request's deadline, and a holder that died blocks nobody beyond the
 * lock's time. Whenever Redis fails or is slow, the instance makes the call itself and
 * reports it: sharing saves calls, it must never cost an answer. While the client is not
 * connected it sends nothing at all (see {@link createRedisOutage}); `outage` is the one the
 * gateway shares with its rate limiter when both use the same client.
 *
 * @example
 * const flight = createSharedFlight({ redis }, (error) => onError(error, 'shared-state'))
 */
export function createSharedFlight(
  options: SharedFlightOptions,
  onError: (error: unknown) => void,
  outage: RedisOutage = createRedisOutage(options.redis, onError, {
    what: 'each instance calls its upstreams alone',
    hearErrors: true,
  }),
): SharedFlight {
  const { redis } = options
  const prefix = options.prefix ?? 'allmenning:flight'
  const lockMs = options.lockMs ?? 2000
  const timeoutMs = options.timeoutMs ?? 200
  if (!(lockMs > 0 && timeoutMs > 0)) throw new TypeError('sharedFlight: lockMs and timeoutMs must be positive')

  function bounded<T>(command: Promise<T>, what: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not ${what} within ${timeoutMs} ms`)), timeoutMs)
    })
    return Promise.race([command, late]).finally(() => clearTimeout(timer))
  }

  /** 'mine', 'held' by another instance, or 'failed' (reported). */
  async function acquire(lock: string, token: string): Promise<'mine' | 'held' | 'failed'> {
    if (!outage.usable()) return 'failed'
    try {
      const reply = await bounded(redis.set(lock, token, { NX: true, PX: lockMs }), 'take a single-flight lock')
      return reply === null ? 'held' : 'mine'
    } catch (error) {
      outage.report(error)
      return 'failed'
    }
  }

  /** Runs a lock script unless Redis is away: a lock not renewed or not released expires on its own. */
  function script(source: string, lock: string, args: string[], what: string) {
    if (!outage.usable()) return
    bounded(redis.eval(source, { keys: [lock], arguments: args }), what).catch(outage.report)
  }

  async function hold(lock: string, token: string, work: SharedFlightWork) {
    const renew = setInterval(
      () => script(renewScript, lock, [token, String(lockMs)], 'renew a single-flight lock'),
      lockMs / 3,
    )
    renew.unref()
    try {
      return { value: await work.produce(), shared: false }
    } finally {
      clearInterval(renew)
      // Not awaited: the answer is ready.
      script(releaseScript, lock, [token], 'release a single-flight lock')
    }
  }

  return {
    async run(key, work) {
      // Cache keys are long (parameters, link base); the lock key is a digest of one.
      // node:crypto is taken on the first shared flight (only a shared store has one), not loaded with the core.
      const { createHash, randomUUID } = process.getBuiltinModule('node:crypto')
      const lock = `${prefix}:${createHash('sha1').update(key).digest('base64url')}`
      const token = randomUUID()
      let state = await acquire(lock, token)
      let wait = 20
      while (state === 'held') {
        await pause(wait, work.signal)
        if (work.signal.aborted) break
        wait = Math.min(wait * 1.5, 200)
        const made = await work.read()
        if (made) return { value: made, shared: true }
        state = await acquire(lock, token)
      }
      if (state === 'mine') return hold(lock, token, work)
      // Redis failed (reported), or the deadline passed while another instance held the lock.
      return { value: await work.produce(), shared: false }
    },
  }
}
