import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createTestGateway, fakeReply, type FakeUpstream, type TestGateway } from '@allmenning/core/testing'
import { startFakeKartverketAdresser } from '../geonorge/testing/fake-kartverket.js'
import { strompris } from './index.js'
import { addDays, osloDate } from '../shared/oslo-time.js'
import { startFakeHvakosterstrommen, type FakeHvakosterstrommen } from './testing/fake-hvakosterstrommen.js'

let prices: FakeHvakosterstrommen
let kartverket: FakeUpstream
let gateway: TestGateway

beforeAll(async () => {
  ;[prices, kartverket] = await Promise.all([startFakeHvakosterstrommen(), startFakeKartverketAdresser()])
})
afterAll(() => Promise.all([prices.close(), kartverket.close()]))
beforeEach(() => {
  prices.publishedThrough = undefined
  prices.failWith(undefined)
  // A fresh source each time: its memo of published days starts empty.
  gateway = createTestGateway({
    sources: strompris(),
    upstreams: { hvakosterstrommen: prices, kartverket_adresser: kartverket },
  })
})

type Period = { time_start: string; time_end: string; NOK_per_kWh: number }
const minutes = (p: Period) => (Date.parse(p.time_end) - Date.parse(p.time_start)) / 60_000

describe('get_prices', () => {
  it('answers a quarter-hour day: 96 periods, the gateway’s shape, VAT stated, the file in provenance, the credit asked for', async () => {
    const { status, json } = await gateway.call('strompris', 'get_prices', { area: 'NO5', date: '2025-11-12' })
    expect(status).toBe(200)
    expect(json.data).toMatchObject({
      date: '2025-11-12',
      area: 'NO5',
      currency: 'NOK',
      vat_included: false,
      resolution_minutes: 15,
    })
    expect(json.data.prices).toHaveLength(96)
    expect(json.data.prices[0]).toEqual({
      time_start: '2025-11-12T00:00:00+01:00',
      time_end: '2025-11-12T00:15:00+01:00',
      NOK_per_kWh: 0.5781,
    })
    // A negative price and one written 1e-05 come through as numbers.
    expect(json.data.prices[13].NOK_per_kWh).toBe(-0.01234)
    expect(json.data.prices[14].NOK_per_kWh).toBe(0.00001)
    expect(json._provenance.data.source_api).toBe(`${prices.baseUrl}/2025/11-12_NO5.json`)
    expect(json._provenance.data.source).toContain('Strømpriser levert av Hva koster strømmen.no')
    expect(gateway.errors).toEqual([])
  })

  it('answers the days summer time starts and ends with their own number of periods', async () => {
    const day = async (area: string, date: string) =>
      (await gateway.call('strompris', 'get_prices', { area, date })).json.data
    const spring = await day('NO1', '2025-03-30')
    expect([
      spring.prices.length,
      spring.resolution_minutes,
      spring.prices.map(minutes).every((m: number) => m === 60),
    ]).toEqual([23, 60, true])
    expect(spring.prices[2].time_start).toBe('2025-03-30T03:00:00+02:00')
    expect((await day('NO2', '2024-10-27')).prices).toHaveLength(25)
    const quarterSpring = await day('NO3', '2026-03-29')
    expect([quarterSpring.prices.length, quarterSpring.resolution_minutes]).toEqual([92, 15])
  })

  it('is a 404 saying so for a day not yet published, and asks again rather than remembering the absence', async () => {
    const today = osloDate(Date.now())
    const tomorrow = addDays(today, 1)
    const source = strompris()
    const upstreams = { hvakosterstrommen: prices, kartverket_adresser: kartverket }
    prices.publishedThrough = today
    const first = await createTestGateway({ sources: source, upstreams }).call('strompris', 'get_prices', {
      area: 'NO1',
      date: tomorrow,
    })
    expect(first.status).toBe(404)
    expect(first.json.error.message).toMatch(new RegExp(`not published prices for NO1 on ${tomorrow} yet`))
    // Published since: the same source (another gateway, so no cached 404) asks again and answers it.
    prices.publishedThrough = tomorrow
    const later = await createTestGateway({ sources: source, upstreams }).call('strompris', 'get_prices', {
      area: 'NO1',
      date: tomorrow,
    })
    expect([later.status, later.json.data?.date]).toEqual([200, tomorrow])
    const old = await gateway.call('strompris', 'get_prices', { area: 'NO1', date: '2020-01-01' })
    expect([old.status, old.json.error.message]).toEqual([
      404,
      'hvakosterstrommen.no has no prices for NO1 on 2020-01-01',
    ])
  })

  it('defaults to today in Oslo', async () => {
    const { status, json } = await gateway.call('strompris', 'get_prices', { area: 'NO4' })
    expect(status).toBe(200)
    expect(json.data.date).toBe(osloDate(Date.now()))
    expect(json.data.prices.length).toBeGreaterThanOrEqual(92)
  })

  it('refuses a bad area or date with a 400 naming it, without asking the upstream', async () => {
    const before = prices.requests.length
    const area = await gateway.call('strompris', 'get_prices', { area: 'NO6', date: '2025-11-12' })
    expect([area.status, area.json.error.details[0].parameter]).toEqual([400, 'area'])
    const format = await gateway.call('strompris', 'get_prices', { area: 'NO1', date: '12.11.2025' })
    expect([format.status, format.json.error.details[0]]).toEqual([
      400,
      expect.objectContaining({ parameter: 'date', problem: 'must be a date written YYYY-MM-DD' }),
    ])
    const impossible = await gateway.call('strompris', 'get_prices', { area: 'NO1', date: '2025-02-30' })
    expect([impossible.status, impossible.json.error.details[0].problem]).toEqual([
      400,
      'must be a date that exists in the calendar',
    ])
    expect(prices.requests.length).toBe(before)
  })

  it('is a 502 naming hvakosterstrommen.no when it fails or sends a broken day', async () => {
    prices.failWith(fakeReply.status(503, 'Service Unavailable'))
    const down = await gateway.call('strompris', 'get_prices', { area: 'NO1', date: '2025-11-12' })
    expect([down.status, down.json.error.upstream]).toEqual([502, 'hvakosterstrommen'])
    prices.failWith(
      fakeReply.json([
        { NOK_per_kWh: 1, time_start: '2025-11-13T00:15:00+01:00', time_end: '2025-11-13T00:00:00+01:00' },
      ]),
    )
    const broken = await gateway.call('strompris', 'get_prices', { area: 'NO1', date: '2025-11-13' })
    expect([broken.status, broken.json.error.code]).toEqual([502, 'upstream_invalid_response'])
    expect(broken.json.error.message).toMatch(/unreadable period/)
  })
})

describe('get_price_range', () => {
  it('answers every day of the range as one list, the days summer time starts included', async () => {
    const { status, json } = await gateway.call('strompris', 'get_price_range', {
      area: 'NO1',
      start_date: '2025-03-29',
      end_date: '2025-03-31',
      limit: 1000,
    })
    expect(status).toBe(200)
    expect(json.data).toMatchObject({
      start_date: '2025-03-29',
      end_date: '2025-03-31',
      area: 'NO1',
      published_dates: ['2025-03-29', '2025-03-30', '2025-03-31'],
      unpublished_dates: [],
    })
    expect(json.data.prices).toHaveLength(24 + 23 + 24)
    const starts = json.data.prices.map((p: Period) => Date.parse(p.time_start))
    expect(starts).toEqual([...starts].sort((a, b) => a - b))
  })

  it('lists the days not yet published at the end of the range, and is a 404 when none is', async () => {
    const today = osloDate(Date.now())
    prices.publishedThrough = today
    const { json } = await gateway.call('strompris', 'get_price_range', {
      area: 'NO2',
      start_date: addDays(today, -1),
      end_date: addDays(today, 1),
      limit: 1000,
    })
    expect([json.data.published_dates, json.data.unpublished_dates]).toEqual([
      [addDays(today, -1), today],
      [addDays(today, 1)],
    ])
    const none = await gateway.call('strompris', 'get_price_range', {
      area: 'NO2',
      start_date: addDays(today, 1),
      end_date: addDays(today, 2),
    })
    expect(none.status).toBe(404)
    expect(none.json.error.message).toMatch(/not published prices for NO2 from .* yet/)
  })

  it('refuses a reversed range or one over 31 days with a 400 naming end_date and the rule', async () => {
    const before = prices.requests.length
    const reversed = await gateway.call('strompris', 'get_price_range', {
      area: 'NO1',
      start_date: '2025-03-10',
      end_date: '2025-03-09',
    })
    expect([reversed.status, reversed.json.error.details[0]]).toEqual([
      400,
      { parameter: 'end_date', problem: 'must be on or after start_date (2025-03-10)', rule: 'order' },
    ])
    const long = await gateway.call('strompris', 'get_price_range', {
      area: 'NO1',
      start_date: '2025-01-01',
      end_date: '2025-02-01',
    })
    expect([long.status, long.json.error.details[0].rule, long.json.error.message]).toEqual([
      400,
      'max_range',
      expect.stringMatching(/end_date must be at most 30 days after start_date/),
    ])
    const ok = await gateway.call('strompris', 'get_price_range', {
      area: 'NO1',
      start_date: '2025-01-01',
      end_date: '2025-01-31',
      limit: 1000,
    })
    expect([ok.status, ok.json.data.published_dates.length]).toEqual([200, 31])
    expect(prices.requests.length).toBe(before + 31)
  })

  it('fetches each published day once, whichever operation asks', async () => {
    await gateway.call('strompris', 'get_prices', { area: 'NO3', date: '2025-06-02' })
    const before = prices.requests.length
    await gateway.call('strompris', 'get_price_range', {
      area: 'NO3',
      start_date: '2025-06-01',
      end_date: '2025-06-03',
    })
    expect(prices.requests.length).toBe(before + 2)
  })
})

describe('get_prices_at_point', () => {
  it('answers today’s prices in the point’s area, told as statnett tells it, with the price now', async () => {
    const { status, json } = await gateway.call('strompris', 'get_prices_at_point', { lat: 60.3976, lon: 5.3232 })
    expect(status).toBe(200)
    expect(json.data).toMatchObject({
      date: osloDate(Date.now()),
      area: 'NO5',
      vat_included: false,
      area_note: expect.stringMatching(/Vestland.*Sunnhordland lies in NO2/),
    })
    const now = Date.now()
    expect(Date.parse(json.data.price_now.time_start)).toBeLessThanOrEqual(now)
    expect(Date.parse(json.data.price_now.time_end)).toBeGreaterThan(now)
    expect(json.data.prices).toContainEqual(json.data.price_now)
    expect(json._provenance.upstreams.map((u: { id: string }) => u.id)).toEqual([
      'kartverket_adresser',
      'hvakosterstrommen',
    ])
  })

  it('answers area null and no prices, without asking for prices, for a point at sea', async () => {
    const before = prices.requests.length
    const { status, json } = await gateway.call('strompris', 'get_prices_at_point', { lat: 57.5, lon: 3.1 })
    expect(status).toBe(200)
    expect(json.data).toMatchObject({
      area: null,
      price_now: null,
      prices: [],
      area_note: expect.stringMatching(/at sea, or outside Norway/),
    })
    expect(prices.requests.length).toBe(before)
  })
})

describe('the upstream override of the built-in sources', () => {
  it('reaches hvakosterstrommen.no where ALLMENNING_UPSTREAM_HVAKOSTERSTROMMEN points', async () => {
    const { builtInSources } = await import('../built-in-sources.js')
    const source = builtInSources({ ALLMENNING_UPSTREAM_HVAKOSTERSTROMMEN: prices.baseUrl }).find(
      (s) => s.id === 'strompris',
    )!
    const before = prices.requests.length
    const { status, json } = await createTestGateway({ sources: source }).call('strompris', 'get_prices', {
      area: 'NO2',
      date: '2024-10-27',
    })
    expect([status, json.data.prices.length, prices.requests.length]).toEqual([200, 25, before + 1])
  })
})

describe('price areas as entities', () => {
  it('names the area of an answer, linked to its prices, and finds the areas by code or name', async () => {
    const { json } = await gateway.call('strompris', 'get_prices', { area: 'NO5', date: '2025-11-12' })
    expect(json.entities).toEqual([
      expect.objectContaining({ type: 'price_area', id: 'NO5', name: 'NO5 Vest-Norge (Bergen)' }),
    ])
    expect(JSON.stringify(json.entities[0])).toContain('/api/v1/kilder/strompris/get_prices?area=NO5')
    const found = await gateway.get('/api/v1/sok/alle', { q: 'Bergen' })
    expect(found.status).toBe(200)
    expect(JSON.stringify(found.json)).toContain('"id":"NO5"')
  })
})
