import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream.js'
import { listSizeCheck } from './plausibility-check.js'
import { createTimedMemo } from './timed-memo.js'
import { createUpstreamClient } from './upstream-client.js'
import { UpstreamError } from '../http/upstream-error.js'

const httpDate = (ms: number) => new Date(ms).toUTCString()
const LAST_MODIFIED = 'Tue, 10 Feb 2026 08:00:00 GMT'

let fake: FakeUpstream
/** What the fake answers next: a fresh body, a 304 to a matching If-Modified-Since, or a failure. */
let mode: 'ok' | 'fail' = 'ok'
let expiresInMs = 30 * 60_000
let version = 1
const seen: (string | undefined)[] = []
/** What `/list` answers: its items and their Last-Modified. */
let list: { items: string[]; lastModified: string } = { items: [], lastModified: LAST_MODIFIED }

beforeAll(async () => {
  fake = await startFakeUpstream({
    '/doc': (_url, req) => {
      seen.push(req.headers['if-modified-since'] as string | undefined)
      if (mode === 'fail') return { status: 503, body: 'Service Unavailable' }
      // Real MET answers carry Date, Expires and Last-Modified; Node adds Date itself.
      const headers = {
        'content-type': 'application/json',
        expires: httpDate(Date.now() + expiresInMs),
        'last-modified': LAST_MODIFIED,
      }
      if (req.headers['if-modified-since'] === LAST_MODIFIED) return { status: 304, headers }
      return { status: 200, headers, body: JSON.stringify({ version }) }
    },
    '/tagged': (_url, req) => {
      seen.push(req.headers['if-none-match'] as string | undefined)
      // An ETag and no Last-Modified, as many JSON APIs answer.
      const headers = { 'content-type': 'application/json', etag: '"v1"' }
      if (req.headers['if-none-match'] === '"v1"') return { status: 304, headers }
      return { status: 200, headers, body: JSON.stringify({ version }) }
    },
    '/list': (_url, req) => {
      seen.push(req.headers['if-modified-since'] as string | undefined)
      const headers = {
        'content-type': 'application/json',
        expires: httpDate(Date.now() + expiresInMs),
        'last-modified': list.lastModified,
      }
      if (req.headers['if-modified-since'] === list.lastModified) return { status: 304, headers }
      return { status: 200, headers, body: JSON.stringify(list.items) }
    },
  })
})
afterAll(() => fake.close())
beforeEach(() => {
  mode = 'ok'
  expiresInMs = 30 * 60_000
  version = 1
  seen.length = 0
})

const client = () =>
  createUpstreamClient({
    id: 'met_test',
    name: 'MET test',
    baseUrl: fake.baseUrl,
    timeoutMs: 1000,
    userAgent: 'allmenning-test',
    maxBodyBytes: 10_000,
  })
const request = {
  path: '/doc',
  parse(body: unknown) {
    const version = (body as { version?: unknown }).version
    if (typeof version !== 'number')
      throw new UpstreamError({ id: 'met_test', name: 'MET test' }, 'invalid_response', 'answered without a version')
    return version
  },
}

describe('createTimedMemo: fetch, with conditional requests', () => {
  it('does not ask again before Expires, however many callers there are', async () => {
    const memo = createTimedMemo<number>({ maxEntries: 10, ttlMs: 1000, maxTtlMs: 3_600_000 })
    expect(await memo.fetch('k', client(), request)).toEqual({ value: 1, status: 200 })
    const again = await Promise.all(Array.from({ length: 5 }, () => memo.fetch('k', client(), request)))
    expect(again.every((answer) => answer.value === 1 && answer.status === undefined)).toBe(true)
    expect(seen).toEqual([undefined])
  })

  it('revalidates with If-Modified-Since after Expires and keeps the value on a 304', async () => {
    let t = Date.now()
    const memo = createTimedMemo<number>({ maxEntries: 10, ttlMs: 1000, maxTtlMs: 3_600_000, now: () => t })
    await memo.fetch('k', client(), request)
    t += 30 * 60_000 + 1
    version = 2 // would be seen only if the fake sent a full answer
    expect(await memo.fetch('k', client(), request)).toEqual({ value: 1, status: 304 })
    expect(seen).toEqual([undefined, LAST_MODIFIED])
    // The 304's Expires counts from then: no call for another half hour.
    t += 29 * 60_000
    await memo.fetch('k', client(), request)
    expect(seen).toHaveLength(2)
  })

  it('shares one call between concurrent callers of an expired key', async () => {
    const memo = createTimedMemo<number>({ maxEntries: 10, ttlMs: 1000, maxTtlMs: 3_600_000 })
    const answers = await Promise.all(Array.from({ length: 10 }, () => memo.fetch('k', client(), request)))
    expect(answers.map((a) => a.value)).toEqual(Array(10).fill(1))
    expect(seen).toHaveLength(1)
  })

  it('computes freshness as Expires − Date, and clamps it to maxTtlMs', async () => {
    let t = Date.now()
    expiresInMs = 10 * 3_600_000
    const memo = createTimedMemo<number>({ maxEntries: 10, ttlMs: 1000, maxTtlMs: 3_600_000, now: () => t })
    await memo.fetch('k', client(), request)
    t += 3_600_000 - 1
    await memo.fetch('k', client(), request)
    expect(seen).toHaveLength(1)
    t += 2
    await memo.fetch('k', client(), request)
    expect(seen).toHaveLength(2)
  })

  it('lets failures through by default and forgets a key that never loaded', async () => {
    mode = 'fail'
    const memo = createTimedMemo<number>({ maxEntries: 10, ttlMs: 1000, maxTtlMs: 3_600_000 })
    await expect(memo.fetch('k', client(), request)).rejects.toMatchObject({
      code: 'upstream_error',
      upstreamStatus: 503,
    })
    expect(memo.size).toBe(0)
  })

  it('with staleOnErrorMs, hands out the expired value when revalidation fails, and waits errorRetryMs before asking again', async () => {
    let t = Date.now()
    const memo = createTimedMemo<number>({
      maxEntries: 10,
      ttlMs: 1000,
      maxTtlMs: 3_600_000,
      staleOnErrorMs: 24 * 3_600_000,
      errorRetryMs: 60_000,
      now: () => t,
    })
    await memo.fetch('k', client(), request)
    t += 31 * 60_000
    mode = 'fail'
    expect(await memo.fetch('k', client(), request)).toEqual({ value: 1, stale: true })
    expect(await memo.fetch('k', client(), request)).toEqual({ value: 1 })
    expect(seen).toHaveLength(2)
    t += 60_001
    mode = 'ok'
    expect(await memo.fetch('k', client(), request)).toEqual({ value: 1, status: 304 })
    // Past staleOnErrorMs the failure comes through.
    t += 25 * 3_600_000
    mode = 'fail'
    await expect(memo.fetch('k', client(), request)).rejects.toBeInstanceOf(UpstreamError)
  })

  it('revalidates with If-None-Match when the answer had an ETag, after ttlMs when it had no Expires', async () => {
    let t = Date.now()
    const memo = createTimedMemo<number>({ maxEntries: 10, ttlMs: 1000, now: () => t })
    expect(await memo.fetch('k', client(), { ...request, path: '/tagged' })).toEqual({ value: 1, status: 200 })
    t += 999
    expect(await memo.fetch('k', client(), { ...request, path: '/tagged' })).toEqual({ value: 1 })
    t += 2
    version = 2
    expect(await memo.fetch('k', client(), { ...request, path: '/tagged' })).toEqual({ value: 1, status: 304 })
    expect(seen).toEqual([undefined, '"v1"'])
  })

  it('awaits beforeCall before every upstream call, and only then', async () => {
    let t = Date.now()
    const turns: string[] = []
    const memo = createTimedMemo<number>({
      maxEntries: 10,
      ttlMs: 1000,
      now: () => t,
      beforeCall: async (c) => void turns.push(c.id),
    })
    await Promise.all([memo.fetch('k', client(), request), memo.fetch('k', client(), request)])
    await memo.fetch('k', client(), request)
    expect(turns).toEqual(['met_test'])
    t += 31 * 60_000
    await memo.fetch('k', client(), request)
    expect(turns).toEqual(['met_test', 'met_test'])
    expect(seen).toHaveLength(2)
  })

  describe('plausibility', () => {
    const listRequest = { path: '/list', parse: (body: unknown) => body as string[] }
    const plausible = listSizeCheck<string[]>({
      upstream: { id: 'met_test', name: 'MET test' },
      what: 'station list',
      count: (items) => items.length,
    })
    const LATER = 'Wed, 11 Feb 2026 08:00:00 GMT'

    it('does not remember an implausible first answer: a 502 naming the upstream, and the next call asks again', async () => {
      list = { items: [], lastModified: LAST_MODIFIED }
      const memo = createTimedMemo<string[]>({ maxEntries: 10, ttlMs: 1000, maxTtlMs: 3_600_000, plausible })
      const error = await memo.fetch('all', client(), listRequest).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(UpstreamError)
      expect((error as UpstreamError).message).toMatch(
        /^Upstream MET test \(met_test\) sent an implausible station list \(0 items/,
      )
      expect(memo.size).toBe(0)
      list = { items: ['a', 'b'], lastModified: LATER }
      expect(await memo.fetch('all', client(), listRequest)).toEqual({ value: ['a', 'b'], status: 200 })
      // Not revalidated against the refused answer's Last-Modified.
      expect(seen).toEqual([undefined, undefined])
    })

    it('keeps the last good list through an empty answer, forgets that answer’s Last-Modified, and asks again after errorRetryMs', async () => {
      let t = Date.now()
      list = { items: ['a', 'b', 'c'], lastModified: LAST_MODIFIED }
      const memo = createTimedMemo<string[]>({
        maxEntries: 10,
        ttlMs: 1000,
        maxTtlMs: 3_600_000,
        staleOnErrorMs: 24 * 3_600_000,
        errorRetryMs: 30_000,
        now: () => t,
        plausible,
      })
      await memo.fetch('all', client(), listRequest)
      t += 31 * 60_000
      list = { items: [], lastModified: LATER }
      expect(await memo.fetch('all', client(), listRequest)).toEqual({ value: ['a', 'b', 'c'], stale: true })
      expect(await memo.fetch('all', client(), listRequest)).toEqual({ value: ['a', 'b', 'c'] })
      expect(seen).toHaveLength(2)
      t += 30_001
      list = { items: ['a', 'b', 'c', 'd'], lastModified: 'Thu, 12 Feb 2026 08:00:00 GMT' }
      expect(await memo.fetch('all', client(), listRequest)).toEqual({ value: ['a', 'b', 'c', 'd'], status: 200 })
      expect(seen).toEqual([undefined, LAST_MODIFIED, LAST_MODIFIED])
    })
  })

  it('keeps at most maxEntries keys, least recently used out first', async () => {
    const memo = createTimedMemo<number>({ maxEntries: 2, ttlMs: 1000, maxTtlMs: 3_600_000 })
    await memo.fetch('a', client(), request)
    await memo.fetch('b', client(), request)
    await memo.fetch('a', client(), request)
    await memo.fetch('c', client(), request)
    expect(memo.size).toBe(2)
    await memo.fetch('a', client(), request)
    expect(seen).toHaveLength(3)
    await memo.fetch('b', client(), request)
    expect(seen).toHaveLength(4)
  })
})
