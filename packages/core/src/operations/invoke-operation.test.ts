import Keyv from 'keyv'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, GatewayError } from '../index.js'
import { defineOperation, defineSource, defineUpstream, UpstreamError } from '../source.js'
import { fakeReply, startFakeUpstream, type FakeUpstream } from '../testing/index.js'

const ferries = defineUpstream({
  id: 'ferries',
  name: 'Ferry timetable',
  baseUrl: 'https://ferjer.example.no',
  publisher: 'Ferjer AS',
  license: 'NLOD',
})

interface Departure {
  quay: string
  at: string
}

const listDepartures = defineOperation({
  name: 'list_departures',
  description: 'Departures from a quay.',
  parameters: {
    quay: v.pipe(v.string(), v.minLength(2)),
    late: v.optional(v.boolean(), false),
  },
  limit: { default: 5, max: 20 },
  output: v.array(v.object({ quay: v.string(), at: v.string() })),
  async run(params, ctx) {
    const res = await ctx
      .upstream(ferries)
      .getJson<Departure[]>(`/quays/${params.quay}/departures`, { acceptStatus: [404] })
    if (res.status === 404) throw new GatewayError(404, 'entity_not_found', `No quay ${params.quay}`)
    return { data: params.late ? res.body.filter((d) => d.at >= '20:00') : res.body }
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
  operations: [listDepartures],
})

let fake: FakeUpstream
beforeAll(async () => {
  fake = await startFakeUpstream({
    '/quays/{quay}/departures': (_url, _req, { quay }) => {
      if (quay === 'nowhere') return fakeReply.json({ message: 'no such quay' }, { status: 404 })
      if (quay === 'broken') return { status: 503, body: 'down for maintenance' }
      return fakeReply.json([
        { quay: quay!, at: '07:15' },
        { quay: quay!, at: '21:40' },
      ])
    },
  })
})
afterAll(() => fake.close())

const gatewayFor = (cache?: Keyv) =>
  createGateway({
    sources: [timetable],
    upstreams: { ferries: { baseUrl: fake.baseUrl } },
    onError: () => {},
    ...(cache ? { cache } : {}),
  })
const departures = (quay: string) =>
  fake.hits('/quays/{quay}/departures') && fake.received.filter((r) => r.path.includes(`/quays/${quay}/`)).length

describe('gateway.invoke', () => {
  it('gives the envelope the GET answers with, as a value, and shares its cached answer with the GET', async () => {
    const gateway = gatewayFor()
    const envelope = await gateway.invoke('ferjer', 'list_departures', { quay: 'moss', limit: 5 })
    const res = await gateway.handle({
      method: 'GET',
      path: '/api/v1/kilder/ferjer/list_departures',
      query: 'quay=moss',
      headers: {},
    })
    expect(res.headers['cache-status']).toMatch(/hit/)
    expect(envelope).toEqual(JSON.parse(res.body!))
    expect(envelope.data).toEqual([
      { quay: 'moss', at: '07:15' },
      { quay: 'moss', at: '21:40' },
    ])
    expect(departures('moss')).toBe(1)
  })

  it('shares one upstream call with a GET asked at the same time', async () => {
    const gateway = gatewayFor()
    const [envelope, res] = await Promise.all([
      gateway.invoke('ferjer', 'list_departures', { quay: 'horten' }),
      gateway.handle({
        method: 'GET',
        path: '/api/v1/kilder/ferjer/list_departures',
        query: 'quay=horten&limit=5&offset=0',
        headers: {},
      }),
    ])
    expect(res.status).toBe(200)
    expect(envelope.parameters).toEqual({ quay: 'horten', late: false, limit: 5, offset: 0 })
    expect(departures('horten')).toBe(1)
  })

  it('judges values as the same text in a query string would be judged', async () => {
    const gateway = gatewayFor()
    const typed = await gateway.invoke('ferjer', 'list_departures', { quay: 'bastoe', limit: 1, late: true })
    const texts = await gateway.invoke('ferjer', 'list_departures', { quay: 'bastoe', limit: '1', late: 'yes' })
    expect(texts).toBe(typed)
    expect(typed.data).toEqual([{ quay: 'bastoe', at: '21:40' }])
    await expect(gateway.invoke('ferjer', 'list_departures', { quay: 'bastoe', limit: 21 })).rejects.toMatchObject({
      status: 400,
      code: 'invalid_parameter',
      details: [{ parameter: 'limit', rule: 'max_value' }],
    })
    await expect(gateway.invoke('ferjer', 'list_departures', { quay: 'bastoe', limit: 'many' })).rejects.toMatchObject({
      status: 400,
      details: [{ parameter: 'limit', rule: 'type' }],
    })
    await expect(gateway.invoke('ferjer', 'list_departures', { quay: 'bastoe', when: 'now' })).rejects.toMatchObject({
      status: 400,
      code: 'unknown_parameter',
    })
    await expect(gateway.invoke('ferjer', 'list_departures', {})).rejects.toMatchObject({
      status: 400,
      details: [{ parameter: 'quay', rule: 'required' }],
    })
    await expect(gateway.invoke('ferjer', 'list_departures', { quay: { name: 'x' } })).rejects.toMatchObject({
      status: 400,
      details: [{ parameter: 'quay', rule: 'type' }],
    })
    await expect(gateway.invoke('ferjer', 'list_arrivals', { quay: 'bastoe' })).rejects.toMatchObject({
      status: 404,
      code: 'operation_not_found',
    })
    await expect(gateway.invoke('busser', 'list_departures', { quay: 'bastoe' })).rejects.toMatchObject({
      status: 404,
      code: 'source_not_found',
    })
  })

  it('remembers a checked call, but never lets a value that is not plain pass as one that was', async () => {
    const gateway = gatewayFor()
    const absent = await gateway.invoke('ferjer', 'list_departures', { quay: 'drobak', limit: null })
    expect(absent.parameters).toMatchObject({ limit: 5 })
    await expect(
      gateway.invoke('ferjer', 'list_departures', { quay: 'drobak', limit: Number.NaN }),
    ).rejects.toMatchObject({ status: 400, details: [{ parameter: 'limit' }] })
    await expect(
      gateway.invoke('ferjer', 'list_departures', { quay: 'drobak', limit: Number.POSITIVE_INFINITY }),
    ).rejects.toMatchObject({ status: 400, details: [{ parameter: 'limit' }] })
    expect(await gateway.invoke('ferjer', 'list_departures', { quay: 'drobak', limit: null })).toBe(absent)
  })

  it('costs a hit no JSON.parse: every hit gives the same envelope object', async () => {
    const gateway = gatewayFor()
    const first = await gateway.invoke('ferjer', 'list_departures', { quay: 'larvik' })
    expect(await gateway.invoke('ferjer', 'list_departures', { quay: 'larvik' })).toBe(first)
  })

  it('parses an answer another instance stored once, then serves that value', async () => {
    const cache = new Keyv()
    await gatewayFor(cache).invoke('ferjer', 'list_departures', { quay: 'sandefjord' })
    const other = gatewayFor(cache)
    const read = await other.invoke('ferjer', 'list_departures', { quay: 'sandefjord' })
    expect(read.data).toEqual([
      { quay: 'sandefjord', at: '07:15' },
      { quay: 'sandefjord', at: '21:40' },
    ])
    expect(await other.invoke('ferjer', 'list_departures', { quay: 'sandefjord' })).toBe(read)
    expect(departures('sandefjord')).toBe(1)
  })

  it('throws a remembered 404 as the same GatewayError as the first time, without asking again', async () => {
    const gateway = gatewayFor()
    const first = await gateway
      .invoke('ferjer', 'list_departures', { quay: 'nowhere' })
      .catch((error: unknown) => error)
    const again = await gateway
      .invoke('ferjer', 'list_departures', { quay: 'nowhere' })
      .catch((error: unknown) => error)
    for (const error of [first, again]) {
      expect(error).toBeInstanceOf(GatewayError)
      expect(error).toMatchObject({ status: 404, code: 'entity_not_found', message: 'No quay nowhere' })
    }
    expect(departures('nowhere')).toBe(1)
  })

  it('throws an UpstreamError naming the upstream when the upstream fails', async () => {
    const error = await gatewayFor()
      .invoke('ferjer', 'list_departures', { quay: 'broken' })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UpstreamError)
    expect(error).toMatchObject({ status: 502 })
    expect((error as UpstreamError).upstream.id).toBe('ferries')
  })

  it('writes links under the mount path it is given', async () => {
    const envelope = await gatewayFor().invoke('ferjer', 'list_departures', { quay: 'moss' }, { basePath: '/data' })
    expect(envelope._links.self).toBe('/data/api/v1/kilder/ferjer/list_departures?quay=moss&late=no&limit=5&offset=0')
  })
})
