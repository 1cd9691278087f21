import { afterEach, describe, expect, it } from 'vitest'
import { UpstreamError } from '@allmenning/core/source'
import {
  createTestGateway,
  fakeReply,
  startFakeUpstream,
  testUpstreamClient,
  type FakeUpstream,
} from '@allmenning/core/testing'
import { createRequestBudget } from '../shared/request-budget.js'
import { startFakeKommuneinfo } from '../shared/testing/fake-kommuneinfo.js'
import { anleggsregisteretApi } from './anleggsregisteret-upstream.js'
import { createFacilityRegister } from './facility-register.js'
import { anleggsregisteret } from './index.js'
import {
  facilitiesRoute,
  manyFacilities,
  springPage,
  startFakeAnleggsregisteret,
} from './testing/fake-anleggsregisteret.js'

const fakes: FakeUpstream[] = []
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()))
})

/** A clock that moves only when told: each page the fake answers takes `pageMs` of it. */
function steppedClock(start = Date.parse('2026-05-07T08:00:00Z')) {
  let t = start
  return { now: () => t, advance: (ms: number) => void (t += ms) }
}

const generous = () => createRequestBudget({ requests: 1000, perMs: 1000, maxWaitMs: 0 })

async function registerFake(rows: Record<string, unknown>[], clock: ReturnType<typeof steppedClock>, pageMs: number) {
  const route = facilitiesRoute(rows)
  const fake = await startFakeUpstream(
    {
      '/facilities': (url, req, params) => {
        clock.advance(pageMs)
        return route(url, req, params)
      },
    },
    '/api',
  )
  fakes.push(fake)
  return fake
}

describe('reading the register', () => {
  it('reads every page once and keeps one facility per id', async () => {
    const clock = steppedClock()
    const fake = await registerFake(manyFacilities(2600), clock, 10)
    const register = createFacilityRegister({ budget: generous(), now: clock.now })
    const read = await register.get(testUpstreamClient(anleggsregisteretApi, fake.baseUrl))
    expect(read.facilities).toHaveLength(2600)
    expect(read.totalElements).toBe(2600)
    expect(fake.received.map((r) => r.query.get('page')).sort()).toEqual(['0', '1', '2', '3', '4', '5'])
    expect(fake.received.every((r) => r.query.get('size') === '500')).toBe(true)
    expect(register.progress()).toBeUndefined()
  })

  it('spreads a long read over several requests, saying how far it has come, and never reads a page twice', async () => {
    const clock = steppedClock()
    const fake = await registerFake(manyFacilities(2600), clock, 1000)
    const register = createFacilityRegister({ budget: generous(), now: clock.now, sliceMs: 1500, concurrency: 1 })
    const client = testUpstreamClient(anleggsregisteretApi, fake.baseUrl)
    const first = await register.get(client).catch((error: unknown) => error)
    expect(first).toBeInstanceOf(UpstreamError)
    const busy = first as UpstreamError
    expect(busy.failure).toBe('busy')
    expect(busy.status).toBe(502)
    expect(busy.message).toMatch(
      /^Upstream Anleggsregisteret \(anleggsregisteret\) is being read page by page \(2 of 6 pages so far\): it cannot be asked for one municipality, so the gateway reads the whole register once every 12 hours; try again in about \d+ s$/,
    )
    expect(Number(busy.headers['retry-after'])).toBeGreaterThan(0)
    expect(register.progress()).toEqual({ pagesRead: 2, totalPages: 6 })

    // Within a second the same answer comes back without a call; after it, the read goes on.
    const again = await register.get(client).catch((error: unknown) => error)
    expect((again as UpstreamError).message).toBe(busy.message)
    expect(fake.requests).toHaveLength(2)
    clock.advance(1000)
    await expect(register.get(client)).rejects.toThrow(/\(4 of 6 pages so far\)/)
    clock.advance(1000)
    const read = await register.get(client)
    expect(read.facilities).toHaveLength(2600)
    expect(fake.received.map((r) => r.query.get('page'))).toEqual(['0', '1', '2', '3', '4', '5'])
  })

  it('reads pages side by side when the first page tells how many there are', async () => {
    let inFlight = 0
    let most = 0
    const rows = manyFacilities(3000)
    const fake = await startFakeUpstream(
      {
        '/facilities': async (url) => {
          inFlight++
          most = Math.max(most, inFlight)
          await new Promise((resolve) => setTimeout(resolve, 20))
          inFlight--
          return fakeReply.json(
            springPage(rows, Number(url.searchParams.get('page')), Number(url.searchParams.get('size'))),
          )
        },
      },
      '/api',
    )
    fakes.push(fake)
    const read = await createFacilityRegister({ budget: generous(), concurrency: 3 }).get(
      testUpstreamClient(anleggsregisteretApi, fake.baseUrl),
    )
    expect(read.facilities).toHaveLength(3000)
    expect(most).toBe(3)
  })

  it('goes one page further at a time when the register does not say how many pages it has', async () => {
    const rows = manyFacilities(1200)
    const fake = await startFakeUpstream(
      {
        '/facilities': (url) => {
          const { content, last } = springPage(
            rows,
            Number(url.searchParams.get('page')),
            Number(url.searchParams.get('size')),
          )
          return fakeReply.json({ content, last })
        },
      },
      '/api',
    )
    fakes.push(fake)
    const read = await createFacilityRegister({ budget: generous() }).get(
      testUpstreamClient(anleggsregisteretApi, fake.baseUrl),
    )
    expect(read.facilities).toHaveLength(1200)
    expect(fake.received.map((r) => r.query.get('page'))).toEqual(['0', '1', '2'])
  })

  it('takes its turn in the request budget for every page', async () => {
    const fake = await startFakeAnleggsregisteret(manyFacilities(1600))
    fakes.push(fake)
    let taken = 0
    const budget = { take: async () => void taken++, inWindow: 0 }
    await createFacilityRegister({ budget }).get(testUpstreamClient(anleggsregisteretApi, fake.baseUrl))
    expect(taken).toBe(4)
  })

  it('starts over when the pages read are half an hour old', async () => {
    const clock = steppedClock()
    const fake = await registerFake(manyFacilities(1100), clock, 1000)
    const register = createFacilityRegister({ budget: generous(), now: clock.now, sliceMs: 500, concurrency: 1 })
    const client = testUpstreamClient(anleggsregisteretApi, fake.baseUrl)
    await expect(register.get(client)).rejects.toThrow(/\(1 of 3 pages so far\)/)
    clock.advance(31 * 60_000)
    await expect(register.get(client)).rejects.toThrow(/\(1 of 3 pages so far\)/)
    expect(fake.received.map((r) => r.query.get('page'))).toEqual(['0', '0'])
  })

  it('keeps answering from the last register while a new read runs in the background', async () => {
    const clock = steppedClock()
    const fake = await registerFake(manyFacilities(600), clock, 10)
    const register = createFacilityRegister({ budget: generous(), now: clock.now, ttlMs: 60_000 })
    const client = testUpstreamClient(anleggsregisteretApi, fake.baseUrl)
    const first = await register.get(client)
    fake.route('/facilities', () => fakeReply.status(503, 'Service Unavailable'))
    clock.advance(61_000)
    const stale = await register.get(client)
    expect(stale).toBe(first)
  })
})

describe('a gateway over a register that takes several requests to read', () => {
  it('answers upstream_busy with Retry-After until the register is read, then the municipality', async () => {
    const rows = manyFacilities(2100)
    let calls = 0
    const route = facilitiesRoute(rows)
    const fake = await startFakeUpstream(
      {
        '/facilities': async (url, req, params) => {
          calls++
          // Every page but the first is slow, so that one request cannot read them all.
          if (calls > 1) await new Promise((resolve) => setTimeout(resolve, 150))
          return route(url, req, params)
        },
      },
      '/api',
    )
    const kommuneinfo = await startFakeKommuneinfo()
    fakes.push(fake, kommuneinfo)
    const gateway = createTestGateway({
      sources: anleggsregisteret({ requestBudget: generous(), readSliceMs: 100 }),
      upstreams: { anleggsregisteret: fake, kartverket_kommuneinfo: kommuneinfo },
    })
    const first = await gateway.call('anleggsregisteret', 'find_facilities', { municipality: 'Oslo' })
    expect(first.status).toBe(502)
    expect(first.json.error).toMatchObject({ code: 'upstream_busy', upstream: 'anleggsregisteret' })
    expect(first.json.error.message).toMatch(/is being read page by page \(\d of 5 pages so far\)/)
    expect(first.headers['retry-after']).toMatch(/^\d+$/)
    expect(first.headers['cache-control']).toBe('no-store')
    let answer = first
    for (let attempt = 0; attempt < 20 && answer.status !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 1050))
      answer = await gateway.call('anleggsregisteret', 'find_facilities', { municipality: 'Oslo' })
    }
    expect(answer.status).toBe(200)
    expect(answer.json.data.count).toBe(2100)
    expect(calls).toBe(5)
    expect(gateway.errors).toEqual([])
  }, 30_000)
})
