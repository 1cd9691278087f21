import * as v from 'valibot'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { defineOperation, defineSource, defineUpstream, UpstreamError } from '../source.js'
import { createTestGateway, fakeReply, startFakeUpstream, type FakeUpstream } from '../testing/index.js'

const ferries = defineUpstream({
  id: 'ferries',
  name: 'Ferry timetable',
  baseUrl: 'https://ferjer.example.no',
  publisher: 'Ferjer AS',
})

interface Departure {
  quay: string
  at: string
}

// The upstream sends every departure of a route at once; the gateway filters and pages.
const listDepartures = defineOperation({
  name: 'list_departures',
  description: 'Departures on a route, optionally from one quay.',
  parameters: { route: v.string(), quay: v.optional(v.string()) },
  limit: { default: 2, max: 20 },
  output: v.array(v.object({ quay: v.string(), at: v.string() })),
  async run(params, ctx) {
    const res = await ctx.upstream(ferries).getJson<Departure[]>(`/routes/${params.route}/departures`)
    // An empty timetable is a failed answer: every route has departures.
    if (res.body.length === 0) throw new UpstreamError(ferries, 'invalid_response', 'sent an empty timetable')
    return { data: params.quay ? res.body.filter((d) => d.quay === params.quay) : res.body }
  },
})

// The same upstream call, fresh for a shorter time.
const nextDeparture = defineOperation({
  name: 'next_departure',
  description: 'The first departure on a route.',
  parameters: { route: v.string() },
  cacheTtlSeconds: 10,
  output: v.object({ quay: v.string(), at: v.string() }),
  async run(params, ctx) {
    const res = await ctx.upstream(ferries).getJson<Departure[]>(`/routes/${params.route}/departures`)
    return { data: res.body[0]! }
  },
})

const timetable = defineSource({
  id: 'ferjer',
  name: 'Ferries',
  description: 'Ferry departures.',
  documentation: 'https://ferjer.example.no/doc',
  topic: 'transport',
  keywords: ['ferry'],
  contentLanguages: ['nb'],
  cacheTtlSeconds: 60,
  upstreams: [ferries],
  operations: [listDepartures, nextDeparture],
})

const departures: Departure[] = [
  { quay: 'moss', at: '07:15' },
  { quay: 'horten', at: '07:45' },
  { quay: 'moss', at: '08:15' },
  { quay: 'horten', at: '08:45' },
  { quay: 'moss', at: '09:15' },
]

let fake: FakeUpstream
let empty = false
beforeAll(async () => {
  fake = await startFakeUpstream({
    '/routes/{route}/departures': () => fakeReply.json(empty ? [] : departures),
  })
})
afterAll(() => fake.close())
afterEach(() => {
  vi.useRealTimers()
  empty = false
})

const calls = (route: string) => fake.received.filter((r) => r.path === `/routes/${route}/departures`).length
const gatewayFor = (upstreamAnswerBytes?: number) =>
  createTestGateway({
    sources: timetable,
    upstreams: { ferries: fake },
    ...(upstreamAnswerBytes === undefined ? {} : { upstreamAnswerBytes }),
  })

describe('upstream answers shared between gateway calls', () => {
  it('pages through a list, and asks another limit and another filter, with one upstream call', async () => {
    const gateway = gatewayFor()
    const pages = []
    for (const offset of [0, 2, 4])
      pages.push(await gateway.call('ferjer', 'list_departures', { route: 'moss-horten', offset }))
    const first = await gateway.call('ferjer', 'list_departures', { route: 'moss-horten', offset: 1, limit: 3 })
    const moss = await gateway.call('ferjer', 'list_departures', { route: 'moss-horten', quay: 'moss', limit: 10 })
    expect(calls('moss-horten')).toBe(1)
    expect(pages.flatMap((page) => page.json.data)).toEqual(departures)
    expect(first.json.data).toEqual(departures.slice(1, 4))
    expect(moss.json.data).toEqual(departures.filter((d) => d.quay === 'moss'))
    expect(gateway.errors).toEqual([])
  })

  it('dates an answer made from a shared upstream answer when that was fetched, and keeps it fresh only as long', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2026-11-25T10:00:00Z'))
    const gateway = gatewayFor()
    const first = await gateway.call('ferjer', 'list_departures', { route: 'hella-dragsvik' })
    expect(first.json._meta.retrieved_at).toBe('2026-11-25T10:00:00.000Z')
    vi.setSystemTime(new Date('2026-11-25T10:00:25Z'))
    const second = await gateway.call('ferjer', 'list_departures', { route: 'hella-dragsvik', offset: 2 })
    expect(calls('hella-dragsvik')).toBe(1)
    expect(second.json._meta.retrieved_at).toBe('2026-11-25T10:00:00.000Z')
    // 60 s of freshness, 25 of them spent before this answer was made.
    expect(second.headers['cache-control']).toBe('public, max-age=35')
    vi.setSystemTime(new Date('2026-11-25T10:01:01Z'))
    const third = await gateway.call('ferjer', 'list_departures', { route: 'hella-dragsvik', offset: 4 })
    expect(calls('hella-dragsvik')).toBe(2)
    expect(third.json._meta.retrieved_at).toBe('2026-11-25T10:01:01.000Z')
  })

  it('shares an answer only as long as the asking operation stays fresh', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2026-11-25T11:00:00Z'))
    const gateway = gatewayFor()
    await gateway.call('ferjer', 'list_departures', { route: 'arsvagen-mortavika' })
    vi.setSystemTime(new Date('2026-11-25T11:00:20Z'))
    // Fresh for 10 s only: a 20-second-old upstream answer is too old for it.
    const next = await gateway.call('ferjer', 'next_departure', { route: 'arsvagen-mortavika' })
    expect(next.json.data).toEqual(departures[0])
    expect(calls('arsvagen-mortavika')).toBe(2)
    // The 60-second operation reads the answer next_departure just fetched.
    await gateway.call('ferjer', 'list_departures', { route: 'arsvagen-mortavika', offset: 2 })
    expect(calls('arsvagen-mortavika')).toBe(2)
  })

  it('never shares an answer the operation refused, so the next call asks again', async () => {
    const gateway = gatewayFor()
    empty = true
    const refused = await gateway.call('ferjer', 'list_departures', { route: 'lavik-oppedal' })
    expect(refused.status).toBe(502)
    empty = false
    const next = await gateway.call('ferjer', 'list_departures', { route: 'lavik-oppedal', offset: 2 })
    expect(next.status).toBe(200)
    expect(calls('lavik-oppedal')).toBe(2)
  })

  it('calls the upstream for every answer made when turned off with upstreamAnswerBytes: 0', async () => {
    const gateway = gatewayFor(0)
    for (const offset of [0, 2, 4]) await gateway.call('ferjer', 'list_departures', { route: 'flakk-rorvik', offset })
    expect(calls('flakk-rorvik')).toBe(3)
  })

  it('records the shared upstream URL in the provenance of every answer made from it', async () => {
    const gateway = gatewayFor()
    const first = await gateway.call('ferjer', 'list_departures', { route: 'molde-vestnes' })
    const second = await gateway.call('ferjer', 'list_departures', { route: 'molde-vestnes', offset: 2 })
    expect(second.json._provenance).toEqual(first.json._provenance)
    expect(JSON.stringify(second.json._provenance)).toContain('/routes/molde-vestnes/departures')
  })
})
