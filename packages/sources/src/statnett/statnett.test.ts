import { readFileSync } from 'node:fs'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type FakeUpstream, type TestGateway } from '@allmenning/core/testing'
import { startFakeStatnett, statnettJson, statnettPaths } from './testing/fake-statnett.js'
import { getPhysicalFlow } from './get-physical-flow.js'
import { getPowerSituation } from './get-power-situation.js'
import { getProductionConsumption } from './get-production-consumption.js'
import { statnett } from './index.js'

let fake: FakeUpstream
let gateway: TestGateway
const fixture = (name: string) => readFileSync(new URL(`./testing/fixtures/${name}`, import.meta.url), 'utf8')
const flowFixture = fixture('physical-flow.json')
const situationsFixture = fixture('power-situations.json')
const restoreFlow = () => fake.route(statnettPaths.flow, () => statnettJson(flowFixture))

const get = (operation: string, query = '') => gateway.call('statnett', operation, query)

beforeAll(async () => {
  fake = await startFakeStatnett()
  gateway = createTestGateway({
    sources: statnett(),
    upstreams: { statnett: { baseUrl: fake.baseUrl, timeoutMs: 500 } },
  })
})
afterAll(() => fake.close())

describe('get_physical_flow', () => {
  it('maps every interconnector with numbers, nulls for "-" and ISO times', async () => {
    const { status, json } = await get('get_physical_flow', 'limit=100')
    expect(status).toBe(200)
    expect(v.is(getPhysicalFlow.output, json.data)).toBe(true)
    expect(json.data).toHaveLength(13)
    expect(json.data[0]).toEqual({
      from_area: 'NO1',
      to_area: 'SE3',
      flow_mw: -1234.5,
      time: '2026-02-14T09:52:24.000Z',
    })
    expect(json.data.find((f: { to_area: string }) => f.to_area === 'EN').flow_mw).toBeNull()
    // "1 200" with a non-breaking space
    expect(json.data.find((f: { to_area: string; from_area: string }) => f.from_area === 'SE3').flow_mw).toBe(1200)
    expect(json._provenance.data.source_api).toBe(`${fake.baseUrl}${statnettPaths.flow}`)
  })

  it('filters by area, either end, case-insensitively', async () => {
    const { json } = await get('get_physical_flow', 'area=fi')
    expect(json.parameters).toEqual({ area: 'FI', limit: 25, offset: 0 })
    expect(json.data.map((f: { from_area: string; to_area: string }) => `${f.from_area}-${f.to_area}`)).toEqual([
      'NO4-FI',
      'SE3-FI',
      'FI-EE',
    ])
  })

  it('pages with limit and offset and says whether more remain', async () => {
    const first = await get('get_physical_flow', 'limit=5')
    expect(first.json.data).toHaveLength(5)
    expect(first.json._meta.pagination).toEqual({
      limit: 5,
      offset: 0,
      returned: 5,
      has_more_results: true,
      next_offset: 5,
      total: 13,
    })
    const last = await get('get_physical_flow', 'limit=5&offset=10')
    expect(last.json.data).toHaveLength(3)
    expect(last.json.data[0].from_area).toBe('FI')
    expect(last.json._meta.pagination).toMatchObject({ returned: 3, has_more_results: false })
  })

  it('lists the price areas as entities linked to the operation that tells more', async () => {
    const { json } = await get('get_physical_flow', 'area=NO1')
    expect(json.entities).toEqual([
      {
        type: 'price_area',
        id: 'NO1',
        name: 'NO1 Øst-Norge (Oslo)',
        source: 'statnett',
        _links: { self: '/api/v1/kilder/statnett/get_physical_flow?area=NO1' },
      },
      {
        type: 'price_area',
        id: 'SE3',
        name: 'SE3 Stockholm',
        source: 'statnett',
        _links: { self: '/api/v1/kilder/statnett/get_physical_flow?area=SE3' },
      },
    ])
  })

  it.each(['Oslo', 'ZZ9', 'NO6'])('rejects %s, naming the parameter and every area it takes', async (area) => {
    const { status, json } = await get('get_physical_flow', `area=${area}`)
    expect(status).toBe(400)
    expect(json.error.details).toEqual([
      {
        parameter: 'area',
        problem:
          'must be one of: NO1, NO2, NO3, NO4, NO5, SE1, SE2, SE3, SE4, DK1, DK2, FI, EE, LV, LT, DE, NL, PL, EN, GB, RU',
        rule: 'enum',
      },
    ])
  })

  it('lists the areas it takes in its schema, so the OpenAPI enum matches the 400', async () => {
    const schema = await gateway.get('/api/v1/kilder/statnett/get_physical_flow/schema')
    expect(JSON.stringify(schema.json)).toContain(
      '"enum":["NO1","NO2","NO3","NO4","NO5","SE1","SE2","SE3","SE4","DK1","DK2","FI","EE","LV","LT","DE","NL","PL","EN","GB","RU"]',
    )
  })

  it('links no entity to an area Statnett names before the source knows it', async () => {
    fake.route(statnettPaths.flow, () =>
      statnettJson('[{"OutAreaElspotId":"XX","InAreaElspotId":"SE3","Value":100,"MeasureDate":1771062744000}]'),
    )
    try {
      const fresh = createTestGateway({
        sources: statnett(),
        upstreams: { statnett: { baseUrl: fake.baseUrl, timeoutMs: 500 } },
      })
      const { status, json } = await fresh.call('statnett', 'get_physical_flow')
      expect(status).toBe(200)
      expect(json.data[0]).toMatchObject({ from_area: 'XX', to_area: 'SE3' })
      expect(json.entities.map((e: { id: string }) => e.id)).not.toContain('XX')
    } finally {
      restoreFlow()
    }
  })
})

describe('get_production_consumption', () => {
  it('reads each country column, the total, and "-" as null', async () => {
    const { status, json } = await get('get_production_consumption')
    expect(status).toBe(200)
    expect(v.is(getProductionConsumption.output, json.data)).toBe(true)
    expect(json.data.measured_at).toBe('2026-02-14T09:52:24.000Z')
    expect(Object.keys(json.data.countries)).toEqual(['SE', 'DK', 'NO', 'FI', 'EE', 'LT', 'LV'])
    expect(json.data.countries.NO).toEqual({
      production_mw: 18455,
      nuclear_mw: null,
      hydro_mw: 17210,
      thermal_mw: 310,
      wind_mw: 935,
      not_specified_mw: 0,
      consumption_mw: 16900,
      net_exchange_mw: 1555,
    })
    expect(json.data.countries.DK.net_exchange_mw).toBe(-1290)
    expect(json.data.total.production_mw).toBe(54597)
    expect(json._meta.pagination).toBeUndefined()
  })

  it('falls back to the header row when cells carry no countryCode (the older shape)', async () => {
    const older = {
      MeasuredAt: 1771062744000,
      Headers: [{ value: 'label' }, { value: 'SE' }, { value: 'NO' }, { value: 'total' }],
      ProductionData: [{ value: 'x' }, { value: '1\u00a0000' }, { value: '2\u00a0000' }, { value: '3\u00a0000' }],
    }
    fake.route(statnettPaths.productionConsumption, () => statnettJson(JSON.stringify(older)))
    const local = createTestGateway({ sources: statnett(), upstreams: { statnett: fake } })
    const { json } = await local.call('statnett', 'get_production_consumption')
    expect(json.data.countries.SE.production_mw).toBe(1000)
    expect(json.data.countries.NO.production_mw).toBe(2000)
    expect(json.data.countries.NO.consumption_mw).toBeNull()
    expect(json.data.total.production_mw).toBe(3000)
  })
})

describe('get_power_situation', () => {
  it('passes the situation through with both languages', async () => {
    const { json } = await get('get_power_situation', 'area=no2')
    expect(v.is(getPowerSituation.output, json.data)).toBe(true)
    expect(json.data).toEqual([
      {
        area: 'NO2',
        status: 'Tight',
        description: 'Tight situation: low reservoir levels for the season',
        description_no: 'Stram situasjon: lav magasinfylling for årstiden',
      },
    ])
  })

  it('accepts only NO1 to NO5', async () => {
    const { status, json } = await get('get_power_situation', 'area=SE3')
    expect(status).toBe(400)
    expect(json.error.details[0]).toMatchObject({
      parameter: 'area',
      rule: 'enum',
      problem: 'must be one of: NO1, NO2, NO3, NO4, NO5',
    })
  })
})

describe('upstream failures', () => {
  const fresh = () =>
    createTestGateway({ sources: statnett(), upstreams: { statnett: { baseUrl: fake.baseUrl, timeoutMs: 300 } } })

  it.each([
    [
      'an empty flow map',
      'get_physical_flow',
      statnettPaths.flow,
      /sent an implausible physical flow \(0 items, at least one expected\)/,
    ],
    [
      'a situation list without NO3 and NO4',
      'get_power_situation',
      statnettPaths.powerSituation,
      /sent an implausible power situation list \(3 items, at least 5 expected\)/,
    ],
    [
      'an empty situation list',
      'get_power_situation',
      statnettPaths.powerSituation,
      /sent an implausible power situation list \(0 items, at least 5 expected\)/,
    ],
  ])('answers %s with a 502 nobody caches, and asks again at the next call', async (name, operation, path, message) => {
    const rows = name.includes('without')
      ? (JSON.parse(situationsFixture) as { elspotId: string }[]).filter(
          (s) => s.elspotId !== 'NO3' && s.elspotId !== 'NO4',
        )
      : []
    fake.route(path, () => statnettJson(JSON.stringify(rows)))
    const g = fresh()
    try {
      const res = await g.call('statnett', operation, 'area=NO1')
      expect(res.status).toBe(502)
      expect(res.headers['cache-control']).toBe('no-store')
      expect(res.json.error).toMatchObject({ code: 'upstream_invalid_response', upstream: 'statnett' })
      expect(res.json.error.message).toMatch(message)
    } finally {
      restoreFlow()
      fake.route(statnettPaths.powerSituation, () => statnettJson(situationsFixture))
    }
    const again = await g.call('statnett', operation, 'area=NO1')
    expect(again.status).toBe(200)
    expect(again.json.data.length).toBeGreaterThan(0)
  })

  it.each([
    ['a 503', { status: 503, body: 'Service Unavailable' }, 'upstream_error', /answered HTTP 503/],
    [
      'an HTML page',
      { status: 200, headers: { 'content-type': 'text/html' }, body: '<html><body>Maintenance</body></html>' },
      'upstream_invalid_response',
      /not valid JSON/,
    ],
    [
      'an empty body',
      { status: 200, headers: { 'content-type': 'application/json' }, body: '' },
      'upstream_invalid_response',
      /empty body/,
    ],
    [
      'JSON of another shape',
      { status: 200, headers: { 'content-type': 'application/json' }, body: '{"Message":"An error has occurred."}' },
      'upstream_invalid_response',
      /unexpected shape/,
    ],
    ['a slow answer', { status: 200, delayMs: 1000, body: '[]' }, 'upstream_timeout', /did not answer within 300 ms/],
    ['a dropped connection', { destroy: true }, 'upstream_unavailable', /could not be reached|broke off/],
  ])('answers %s with a 502 naming Statnett', async (_name, reply, code, message) => {
    fake.route(statnettPaths.powerSituation, () => reply)
    const res = await fresh().call('statnett', 'get_power_situation')
    const json = res.json
    expect(res.status).toBe(502)
    expect(json.error).toMatchObject({ status: 502, code, upstream: 'statnett' })
    expect(json.error.message).toMatch(/^Upstream Statnett driftsdata \(statnett\) /)
    expect(json.error.message).toMatch(message)
    expect(res.body).not.toMatch(/at .*\.ts:\d+/)
  })
})
