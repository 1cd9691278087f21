import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, GatewayError, type Gateway } from '@allmenning/core'
import {
  defineOperation,
  defineSource,
  defineUpstream,
  UpstreamError,
  type SourceDefinition,
} from '@allmenning/core/source'
import { avinor, firmafakta, statnett } from '@allmenning/sources'
import { startFakeAvinor, type FakeAvinor } from '@allmenning/sources/avinor/testing'
import { startFakeBrreg, type FakeBrreg } from '@allmenning/sources/firmafakta/testing'
import { startFakeStatnett } from '@allmenning/sources/statnett/testing'
import type { FakeUpstream } from '@allmenning/core/testing'

let statnettFake: FakeUpstream
let avinorFake: FakeAvinor
let brregFake: FakeBrreg

beforeAll(async () => {
  ;[statnettFake, avinorFake, brregFake] = await Promise.all([startFakeStatnett(), startFakeAvinor(), startFakeBrreg()])
})
afterAll(() => Promise.all([statnettFake.close(), avinorFake.close(), brregFake.close()]))

const upstreams = () => ({
  statnett: { baseUrl: statnettFake.baseUrl },
  avinor: { baseUrl: avinorFake.baseUrl },
  brreg: { baseUrl: brregFake.baseUrl },
})

/** A source of our own whose search behaves as told: hits, a hang, a failure, a dataset not loaded. */
function testSource(id: string, search: (q: string) => Promise<{ id: string; name: string }[]>): SourceDefinition {
  const upstream = defineUpstream({
    id: `${id}_api`,
    name: `${id} API`,
    baseUrl: 'http://127.0.0.1:9',
    publisher: 'Tests',
  })
  return defineSource({
    id,
    name: `Test source ${id}`,
    description: 'A source for the search tests.',
    documentation: `https://example.no/${id}`,
    topic: 'testing',
    keywords: [id],
    contentLanguages: ['en'],
    cacheTtlSeconds: 60,
    upstreams: [upstream],
    entityTypes: { thing: { operation: 'get_thing', parameter: 'id' } },
    entitySearch: { search: async (q) => ({ hits: (await search(q)).map((h) => ({ type: 'thing', ...h })) }) },
    operations: [
      defineOperation({
        name: 'get_thing',
        description: 'One thing.',
        parameters: { id: v.string() },
        output: v.string(),
        run: async (p) => ({ data: p.id }),
      }),
    ],
  })
}

const hang = () => new Promise<never>(() => {})

function gatewayWith(extra: SourceDefinition[] = [], search = {}): Gateway {
  return createGateway({
    sources: [firmafakta(), avinor(), statnett(), ...extra],
    upstreams: upstreams(),
    search,
    onError: () => {},
  })
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function search(
  gateway: Gateway,
  query: string,
): Promise<{ status: number; json: any; headers: Record<string, string> }> {
  const res = await gateway.handle({ method: 'GET', path: '/api/v1/sok/alle', query, headers: {} })
  return { status: res.status, json: JSON.parse(res.body!), headers: res.headers }
}

describe('auto mode', () => {
  it('answers from the catalogue, calling no upstream, when the text names a source', async () => {
    const before = brregFake.requests.length + avinorFake.requests.length
    const { json } = await search(gatewayWith(), 'q=flights')
    expect(json).toMatchObject({ mode: 'source_discovery', routing: { reason: 'the text names a source' } })
    expect(json.results[0]).toMatchObject({ type: 'data_source', id: 'avinor' })
    expect(brregFake.requests.length + avinorFake.requests.length).toBe(before)
  })

  it('routes an organisation number to firmafakta first', async () => {
    const { json } = await search(gatewayWith(), 'q=976%20030%20788')
    expect(json).toMatchObject({
      mode: 'entities',
      routing: { recognized_as: 'organization_number', source: 'firmafakta' },
    })
    expect(json.results).toEqual([
      {
        type: 'organization',
        id: '976030788',
        name: 'SESAM AS',
        description: 'Aksjeselskap i TRONDHEIM',
        source: 'firmafakta',
        score: expect.any(Number),
        _links: {
          api: '/api/v1/kilder/firmafakta/selskapsdetaljer?org_nr=976030788',
          wiki: expect.stringMatching(/^https:\/\/data\.brreg\.no\//),
        },
      },
    ])
    expect(Object.keys(json.coverage)).toEqual(['firmafakta'])
    expect(json.not_searched.details).toEqual(
      expect.arrayContaining([
        { source: 'avinor', reason: 'routed_elsewhere' },
        { source: 'statnett', reason: 'routed_elsewhere' },
      ]),
    )
  })

  it('routes a three-letter code to avinor, the airport first', async () => {
    const { json } = await search(gatewayWith(), 'q=BGO')
    expect(json.routing).toMatchObject({ recognized_as: 'airport_code', source: 'avinor' })
    expect(json.results[0]).toMatchObject({
      type: 'airport',
      id: 'BGO',
      name: 'Bergen',
      _links: { api: '/api/v1/kilder/avinor/get_flights?airport_id=BGO' },
    })
  })

  it('searches every source when the owner of a recognised text finds nothing', async () => {
    const { json } = await search(gatewayWith(), 'q=ZZQ')
    expect(json.routing.reason).toMatch(/avinor found nothing; every source was searched/)
    expect(Object.keys(json.coverage).sort()).toEqual(['avinor', 'firmafakta', 'statnett'])
  })

  it('searches entities for anything else', async () => {
    const { json } = await search(gatewayWith(), 'q=sesam')
    expect(json.mode).toBe('entities')
    expect(json.results.map((r: { name: string }) => r.name).slice(0, 2)).toEqual(['SESAM AS', 'SESAM BAKERI AS'])
  })
})

describe('the modes', () => {
  it('entities never returns sources, even for a source name', async () => {
    const { json } = await search(gatewayWith(), 'q=statnett&mode=entities')
    expect(json.mode).toBe('entities')
    expect(json.results.every((r: { type: string }) => r.type !== 'data_source')).toBe(true)
    expect(json.data_sources).toEqual([])
  })

  it('all returns sources and entities in one ranking', async () => {
    const { json } = await search(gatewayWith(), 'q=bergen&mode=all&limit=10')
    expect(json.mode).toBe('all')
    expect(json.results[0]).toMatchObject({ type: 'airport', id: 'BGO', name: 'Bergen' })
    const { json: named } = await search(gatewayWith(), 'q=avinor&mode=all')
    expect(named.results[0]).toMatchObject({ type: 'data_source', id: 'avinor' })
    expect(named.data_sources.map((d: { id: string }) => d.id)).toEqual(['avinor'])
  })

  it('source_discovery searches no entity', async () => {
    const { json } = await search(gatewayWith(), 'q=sesam&mode=source_discovery')
    expect(json).toMatchObject({ mode: 'source_discovery', coverage: {}, outcome: 'no_results' })
    expect(json.not_searched.details).toEqual(
      expect.arrayContaining([{ source: 'firmafakta', reason: 'source_discovery_only' }]),
    )
  })
})

describe('fan-out', () => {
  it('answers within the deadline when a source hangs, saying which timed out', async () => {
    const gateway = gatewayWith([testSource('slow', hang)], { deadlineMs: 300, sourceTimeoutMs: 200 })
    const started = Date.now()
    const { status, json } = await search(gateway, 'q=sesam&mode=entities')
    expect(Date.now() - started).toBeLessThan(1000)
    expect(status).toBe(200)
    expect(json.coverage.slow).toMatchObject({ status: 'timeout', returned: 0 })
    expect(json.coverage.firmafakta).toMatchObject({ status: 'ok' })
    expect(json.results[0]).toMatchObject({ name: 'SESAM AS' })
  })

  it('reports a failing source and a source whose dataset is not loaded, and answers with the rest', async () => {
    const failing = testSource('broken', async () => {
      throw new UpstreamError({ id: 'broken_api', name: 'broken API' }, 'status', 'answered HTTP 503', 503)
    })
    const unloaded = testSource('unloaded', async () => {
      throw new GatewayError(502, 'dataset_not_loaded', 'Dataset x is not loaded; run npx allmenning datasets sync x')
    })
    const { json } = await search(gatewayWith([failing, unloaded]), 'q=sesam&mode=entities')
    expect(json.coverage.broken).toMatchObject({
      status: 'error',
      message: 'Upstream broken API (broken_api) answered HTTP 503',
    })
    expect(json.coverage.unloaded).toMatchObject({
      status: 'not_loaded',
      message: expect.stringMatching(/datasets sync x/),
    })
    expect(json.outcome).toBe('results')
  })

  it('does not call it "nothing matched" when nothing was found but a source could not answer', async () => {
    const unloaded = testSource('unloaded', async () => {
      throw new GatewayError(502, 'dataset_not_loaded', 'Dataset x is not loaded; run npx allmenning datasets sync x')
    })
    const { json } = await search(gatewayWith([unloaded]), 'q=zzzqqq&mode=entities&sources=firmafakta,unloaded')
    expect(json.coverage.firmafakta).toMatchObject({ status: 'ok', returned: 0 })
    expect(json.outcome).toBe('incomplete')
    expect(json.suggestion).toMatch(
      /not every source could answer: unloaded \(not loaded: Dataset x is not loaded; run npx allmenning datasets sync x\)/,
    )
    const answered = await search(gatewayWith(), 'q=zzzqqq&mode=entities&sources=firmafakta')
    expect(answered.json.outcome).toBe('no_results')
    expect(answered.json.suggestion).toMatch(/^Nothing matched "zzzqqq"/)
  })

  it('lists the sources left out and why', async () => {
    const silent = defineSource({ ...testSource('silent', async () => []), entitySearch: undefined })
    const { json } = await search(gatewayWith([silent]), 'q=sesam&mode=entities&sources=firmafakta,silent')
    expect(Object.keys(json.coverage)).toEqual(['firmafakta'])
    expect(json.not_searched.details).toEqual([
      { source: 'avinor', reason: 'filtered_by_sources' },
      { source: 'statnett', reason: 'filtered_by_sources' },
      { source: 'silent', reason: 'cannot_search' },
    ])
    expect(json.not_searched.reason).toBe('avinor, statnett: not among sources=; silent: has no entity search')
    const over = await search(gatewayWith([], { maxSources: 1 }), 'q=sesam&mode=entities')
    expect(over.json.not_searched.details).toEqual([
      { source: 'avinor', reason: 'over_budget' },
      { source: 'statnett', reason: 'over_budget' },
    ])
  })

  it('answers a 400 naming unknown source ids', async () => {
    const { status, json } = await search(gatewayWith(), 'q=sesam&sources=firmafakta,nope,zilch')
    expect(status).toBe(400)
    expect(json.error.details).toEqual([
      {
        parameter: 'sources',
        problem: expect.stringMatching(/names unknown source nope, zilch; available: firmafakta, avinor, statnett/),
        rule: 'enum',
      },
    ])
  })

  it('keeps limit across sources, with total_matched true to what matched', async () => {
    const many = testSource('many', async () =>
      Array.from({ length: 8 }, (_, i) => ({ id: `t${i}`, name: `Sesam thing ${i}` })),
    )
    const { json } = await search(gatewayWith([many]), 'q=sesam&mode=entities&limit=3')
    expect(json.returned).toBe(3)
    expect(json.results).toHaveLength(3)
    expect(json.total_matched).toBe(json.coverage.firmafakta.matched + json.coverage.many.matched)
    expect(json.coverage.many).toMatchObject({ returned: 3, matched: 3 })
  })
})

describe('caching', () => {
  it("answers the same search from the cache, and its upstream calls share the operations' cache", async () => {
    const gateway = gatewayWith()
    await gateway.handle({
      method: 'GET',
      path: '/api/v1/kilder/firmafakta/organisasjonsnummer_for_selskap',
      query: 'company_name=Sesam&limit=5',
      headers: {},
    })
    const before = brregFake.requests.length
    const first = await search(gateway, 'q=Sesam&mode=entities')
    expect(brregFake.requests.length).toBe(before)
    expect(first.headers['cache-status']).toMatch(/fwd=miss; stored/)
    const again = await search(gateway, 'q=Sesam&mode=entities')
    expect(again.headers['cache-status']).toMatch(/hit/)
    expect(again.json).toEqual(first.json)
  })
})
