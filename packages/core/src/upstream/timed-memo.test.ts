import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createTimedMemo } from './timed-memo.js'
import { listSizeCheck } from './plausibility-check.js'
import { UpstreamError } from '../http/upstream-error.js'

/** A hand-driven clock, so TTL tests do not sleep. */
function clock(start = 1_000_000) {
  let t = start
  return { now: () => t, advance: (ms: number) => void (t += ms) }
}

/** A promise with its resolve/reject exposed, to hold a load open. */
function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

const flush = () => new Promise((resolve) => setImmediate(resolve))

describe('createTimedMemo', () => {
  const unhandled: unknown[] = []
  const onUnhandled = (reason: unknown) => void unhandled.push(reason)
  beforeEach(() => {
    unhandled.length = 0
    process.on('unhandledRejection', onUnhandled)
  })
  afterEach(() => {
    process.off('unhandledRejection', onUnhandled)
  })

  it('returns the memoized value while it is fresh and reloads after the TTL', async () => {
    const c = clock()
    const memo = createTimedMemo<number>({ ttlMs: 60_000, now: c.now })
    let calls = 0
    const load = async () => ++calls
    expect(await memo.get('k', load)).toBe(1)
    c.advance(59_999)
    expect(await memo.get('k', load)).toBe(1)
    c.advance(1)
    expect(await memo.get('k', load)).toBe(2)
    expect(calls).toBe(2)
  })

  it('keeps keys apart', async () => {
    const memo = createTimedMemo<string>({ ttlMs: 60_000 })
    expect(await memo.get('a', async () => 'A')).toBe('A')
    expect(await memo.get('b', async () => 'B')).toBe('B')
    expect(await memo.get('a', async () => 'other')).toBe('A')
  })

  it('shares one load between concurrent identical calls (single flight)', async () => {
    const memo = createTimedMemo<string>({ ttlMs: 60_000 })
    const gate = deferred<string>()
    const load = vi.fn(() => gate.promise)
    const calls = Array.from({ length: 20 }, () => memo.get('k', load))
    gate.resolve('v')
    expect(await Promise.all(calls)).toEqual(Array(20).fill('v'))
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('rejects every concurrent caller of a failed load, and retries on the next call without errorTtlMs', async () => {
    const memo = createTimedMemo<string>({ ttlMs: 60_000 })
    const gate = deferred<string>()
    const first = memo.get('k', () => gate.promise)
    const second = memo.get('k', () => Promise.resolve('not called'))
    gate.reject(new Error('down'))
    await expect(first).rejects.toThrow('down')
    await expect(second).rejects.toThrow('down')
    expect(memo.size).toBe(0)
    expect(await memo.get('k', async () => 'up')).toBe('up')
  })

  it('remembers a failure for errorTtlMs without calling the loader again', async () => {
    const c = clock()
    const memo = createTimedMemo<string>({ ttlMs: 60_000, errorTtlMs: 10_000, now: c.now })
    const load = vi.fn(async () => {
      throw new Error('down')
    })
    await expect(memo.get('k', load)).rejects.toThrow('down')
    c.advance(9_999)
    await expect(memo.get('k', load)).rejects.toThrow('down')
    expect(load).toHaveBeenCalledTimes(1)
    c.advance(1)
    await expect(memo.get('k', async () => 'up')).resolves.toBe('up')
  })

  it('treats a loader that throws synchronously like a rejected load', async () => {
    const memo = createTimedMemo<string>({ ttlMs: 1000 })
    const load = (() => {
      throw new Error('sync')
    }) as () => Promise<string>
    await expect(memo.get('k', load)).rejects.toThrow('sync')
  })

  describe('stale-while-revalidate', () => {
    it('serves the stale value at once and refreshes it in the background', async () => {
      const c = clock()
      const memo = createTimedMemo<string>({ ttlMs: 1000, staleMs: 10_000, now: c.now })
      await memo.get('k', async () => 'old')
      c.advance(1500)
      const gate = deferred<string>()
      const refresh = vi.fn(() => gate.promise)
      expect(await memo.get('k', refresh)).toBe('old')
      // A second stale call while the refresh runs does not start another one.
      expect(await memo.get('k', refresh)).toBe('old')
      expect(refresh).toHaveBeenCalledTimes(1)
      gate.resolve('new')
      await flush()
      expect(await memo.get('k', async () => 'unused')).toBe('new')
    })

    it('keeps the old value when a background refresh fails, reports it, and leaks no unhandled rejection', async () => {
      const c = clock()
      const errors: unknown[] = []
      const memo = createTimedMemo<string>({
        ttlMs: 1000,
        staleMs: 10_000,
        errorTtlMs: 2000,
        now: c.now,
        onBackgroundError: (error) => {
          errors.push(error)
          throw new Error('listener bug')
        },
      })
      await memo.get('k', async () => 'old')
      c.advance(1500)
      const failing = vi.fn(async () => {
        throw new Error('refresh failed')
      })
      expect(await memo.get('k', failing)).toBe('old')
      await flush()
      expect(errors).toHaveLength(1)
      expect((errors[0] as Error).message).toBe('refresh failed')
      // Within errorTtlMs the failed refresh is not retried; the old value is still served.
      expect(await memo.get('k', failing)).toBe('old')
      expect(failing).toHaveBeenCalledTimes(1)
      c.advance(2000)
      expect(await memo.get('k', async () => 'new')).toBe('old')
      await flush()
      expect(await memo.get('k', failing)).toBe('new')
      await flush()
      expect(unhandled).toEqual([])
    })

    it('waits for a new load once the value is older than ttlMs + staleMs', async () => {
      const c = clock()
      const memo = createTimedMemo<string>({ ttlMs: 1000, staleMs: 1000, now: c.now })
      await memo.get('k', async () => 'old')
      c.advance(2000)
      expect(memo.peek('k')).toBeUndefined()
      expect(await memo.get('k', async () => 'new')).toBe('new')
    })

    it('rejects rather than serving an expired value when the blocking load fails', async () => {
      const c = clock()
      const memo = createTimedMemo<string>({ ttlMs: 1000, staleMs: 1000, now: c.now })
      await memo.get('k', async () => 'old')
      c.advance(5000)
      await expect(
        memo.get('k', async () => {
          throw new Error('down')
        }),
      ).rejects.toThrow('down')
    })
  })

  describe('plausibility', () => {
    const upstream = { id: 'names', name: 'Name list' }
    const plausible = listSizeCheck<string[]>({ upstream, what: 'name list', count: (names) => names.length })
    const good = ['a', 'b', 'c', 'd']

    it('does not remember an implausible first answer: callers get a 502 naming the upstream until the retry interval, then it asks again', async () => {
      const c = clock()
      const memo = createTimedMemo<string[]>({
        ttlMs: 86_400_000,
        staleMs: 86_400_000,
        errorTtlMs: 10_000,
        now: c.now,
        plausible,
      })
      const empty = vi.fn(async () => [] as string[])
      const error = await memo.get('all', empty).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(UpstreamError)
      expect((error as UpstreamError).status).toBe(502)
      expect((error as UpstreamError).message).toMatch(
        /^Upstream Name list \(names\) sent an implausible name list \(0 items, at least one expected\)/,
      )
      expect(memo.peek('all')).toBeUndefined()
      // Within the retry interval the refusal is remembered, not the list.
      await expect(memo.get('all', empty)).rejects.toBe(error)
      expect(empty).toHaveBeenCalledTimes(1)
      c.advance(10_000)
      expect(await memo.get('all', async () => good)).toEqual(good)
      expect(memo.peek('all')).toEqual(good)
    })

    it('keeps serving the last good list through an empty refresh and tries again after the retry interval', async () => {
      const c = clock()
      const errors: unknown[] = []
      const memo = createTimedMemo<string[]>({
        ttlMs: 1000,
        staleMs: 86_400_000,
        errorTtlMs: 10_000,
        now: c.now,
        plausible,
        onBackgroundError: (e) => void errors.push(e),
      })
      await memo.get('all', async () => good)
      c.advance(1000)
      const empty = vi.fn(async () => [] as string[])
      expect(await memo.get('all', empty)).toEqual(good)
      await flush()
      expect(errors).toHaveLength(1)
      expect(await memo.get('all', empty)).toEqual(good)
      expect(empty).toHaveBeenCalledTimes(1)
      c.advance(10_000)
      expect(await memo.get('all', async () => ['e', 'f', 'g'])).toEqual(good)
      await flush()
      expect(memo.peek('all')).toEqual(['e', 'f', 'g'])
      expect(unhandled).toEqual([])
    })

    it('refuses a list that lost more than half of the last good one, even after that one expired', async () => {
      const c = clock()
      const memo = createTimedMemo<string[]>({ ttlMs: 1000, staleMs: 1000, now: c.now, plausible })
      await memo.get('all', async () => good)
      c.advance(5000)
      await expect(memo.get('all', async () => ['a'])).rejects.toThrow('(1 item, 4 in the last good one expected)')
      // errorTtlMs 0: the very next call asks again, and a list of a plausible size is kept.
      expect(await memo.get('all', async () => ['a', 'b'])).toEqual(['a', 'b'])
    })
  })

  it('peek returns the servable value without loading', async () => {
    const c = clock()
    const memo = createTimedMemo<string>({ ttlMs: 1000, now: c.now })
    expect(memo.peek('k')).toBeUndefined()
    await memo.get('k', async () => 'v')
    expect(memo.peek('k')).toBe('v')
    c.advance(1000)
    expect(memo.peek('k')).toBeUndefined()
  })

  it('holds at most maxEntries keys, evicting the least recently used first', async () => {
    const memo = createTimedMemo<string>({ ttlMs: 60_000, maxEntries: 3 })
    for (const key of ['a', 'b', 'c']) await memo.get(key, async () => key)
    await memo.get('a', async () => 'reloaded')
    await memo.get('d', async () => 'd')
    expect(memo.size).toBe(3)
    expect(memo.peek('b')).toBeUndefined()
    expect(memo.peek('a')).toBe('a')
    expect(memo.peek('c')).toBe('c')
    expect(memo.peek('d')).toBe('d')
    for (let i = 0; i < 100; i++) await memo.get(`k${i}`, async () => 'x')
    expect(memo.size).toBe(3)
  })

  it('delete and clear forget values', async () => {
    const memo = createTimedMemo<number>({ ttlMs: 60_000 })
    let n = 0
    const load = async () => ++n
    await memo.get('a', load)
    await memo.get('b', load)
    memo.delete('a')
    expect(await memo.get('a', load)).toBe(3)
    memo.clear()
    expect(memo.size).toBe(0)
    expect(await memo.get('b', load)).toBe(4)
  })
})
