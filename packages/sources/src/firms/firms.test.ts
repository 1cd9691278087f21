import * as v from 'valibot'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, type Gateway } from '@allmenning/core'
import type { FakeUpstream } from '@allmenning/core/testing'
import { boundingBox } from './bounding-box.js'
import { acquisitionTime, confidenceOf, parseFireCsv } from './fire-csv.js'
import { createFindFireDetections } from './find-fire-detections.js'
import { firms } from './index.js'
import {
  FAKE_FIRMS_KEY,
  firmsCsv,
  firmsText,
  parseAreaPath,
  serveFirmsArea,
  startFakeFirms,
  viirsHeaderOnly,
} from './testing/fake-firms.js'

let fake: FakeUpstream

const gatewayFor = (mapKey: string | undefined, timeoutMs = 1000) =>
  createGateway({
    sources: [firms({ mapKey })],
    upstreams: { firms: { baseUrl: fake.baseUrl, timeoutMs } },
    onError: () => {},
  })
const call = async (g: Gateway, query: string) => {
  const res = await g.handle({ method: 'GET', path: '/api/v1/kilder/firms/find_fire_detections', query, headers: {} })
  return { ...res, json: JSON.parse(res.body ?? 'null') }
}
const sokndal = 'lat=58.3340&lon=6.2990'
const upstream = { id: 'firms', name: 'NASA FIRMS' }

beforeAll(async () => {
  fake = await startFakeFirms()
})
afterAll(() => fake.close())
afterEach(() => fake.route('*', serveFirmsArea))

describe('find_fire_detections', () => {
  it('asks FIRMS for the box around the circle and answers the detections inside it, nearest first', async () => {
    const before = fake.requests.length
    const { status, json } = await call(gatewayFor(FAKE_FIRMS_KEY), `${sokndal}&radius_km=30`)
    expect(status).toBe(200)
    expect(v.is(createFindFireDetections(undefined).output, json.data)).toBe(true)
    const asked = parseAreaPath(fake.requests[before]!.replace(/^\/api/, ''))!
    expect(asked).toMatchObject({ key: FAKE_FIRMS_KEY, source: 'VIIRS_SNPP_NRT', days: 1 })
    const [west, south, east, north] = asked.area
    expect(south).toBeCloseTo(58.334 - 30 / 111.32, 2)
    expect(north).toBeCloseTo(58.334 + 30 / 111.32, 2)
    expect(east - west).toBeCloseTo((2 * 30) / (111.32 * Math.cos((58.334 * Math.PI) / 180)), 2)
    expect(json.data).toMatchObject({ radius_km: 30, days: 1, product: 'VIIRS_SNPP_NRT', has_more_results: false })
    expect(json.data.detections[0]).toEqual({
      lat: 58.33412,
      lon: 6.29805,
      acquired_at: '2026-04-18T01:49:00Z',
      satellite: 'N',
      instrument: 'VIIRS',
      confidence: 'nominal',
      confidence_pct: null,
      brightness_k: 331.87,
      frp_mw: 4.21,
      daynight: 'night',
      distance_km: 0.057,
    })
    expect(json.data.detections.map((d: { confidence: string }) => d.confidence)).toEqual(['nominal', 'high', 'low'])
    expect(json.data.detections.map((d: { acquired_at: string }) => d.acquired_at)).toContain('2026-04-18T11:27:00Z')
    // The row without a latitude is counted, not answered; the detection in the box's corner, 31 km off, is dropped.
    expect(json._raw_values).toMatchObject({ detections_in_area: 4, unreadable_rows_skipped: 1 })
    expect(json.data.detections.every((d: { distance_km: number }) => d.distance_km <= 30)).toBe(true)
  })

  it('reads MODIS columns and percentage confidence', async () => {
    const { json } = await call(gatewayFor(FAKE_FIRMS_KEY), `${sokndal}&radius_km=5&product=modis_nrt&days=3`)
    expect(json.parameters).toMatchObject({ product: 'MODIS_NRT', days: 3 })
    expect(json.data.detections).toEqual([
      expect.objectContaining({
        satellite: 'T',
        instrument: 'MODIS',
        confidence: 'high',
        confidence_pct: 85,
        brightness_k: 318.4,
        frp_mw: 22.4,
        daynight: 'day',
        acquired_at: '2026-04-18T10:35:00Z',
      }),
      expect.objectContaining({
        satellite: 'A',
        confidence: 'low',
        confidence_pct: 27,
        acquired_at: '2026-04-18T12:10:00Z',
      }),
    ])
  })

  it('answers an empty list when FIRMS sends the header line alone', async () => {
    fake.route('*', () => firmsCsv(viirsHeaderOnly))
    const { status, json } = await call(gatewayFor(FAKE_FIRMS_KEY), sokndal)
    expect(status).toBe(200)
    expect(json.data.detections).toEqual([])
  })

  it('never shows the key in what it answers', async () => {
    const { json, body } = await call(gatewayFor(FAKE_FIRMS_KEY), sokndal)
    expect(body).not.toContain(FAKE_FIRMS_KEY)
    expect(json._provenance.data.source_api).toMatch(
      /\/area\/csv\/\*\*\*\/VIIRS_SNPP_NRT\/[-\d.]+,[-\d.]+,[-\d.]+,[-\d.]+\/1$/,
    )
    expect(json._provenance.upstreams[0]).toMatchObject({ id: 'firms', license: 'NASA Earth Science open data policy' })
  })

  it('validates days and product against what FIRMS accepts', async () => {
    const g = gatewayFor(FAKE_FIRMS_KEY)
    expect((await call(g, `${sokndal}&days=6`)).json.error.details).toEqual([
      { parameter: 'days', problem: 'must be at most 5', rule: 'max_value' },
    ])
    expect((await call(g, `${sokndal}&product=landsat`)).json.error.details[0]).toMatchObject({
      parameter: 'product',
      rule: 'enum',
    })
    expect((await call(g, 'lat=58&lon=200')).json.error.details).toEqual([
      { parameter: 'lon', problem: 'must be at most 180', rule: 'max_value' },
    ])
  })
})

describe('without its key, or with a refused one', () => {
  it('answers 502 upstream_not_configured naming the variable, without calling FIRMS', async () => {
    const before = fake.requests.length
    const { status, json } = await call(gatewayFor(undefined), sokndal)
    expect(status).toBe(502)
    expect(json.error).toMatchObject({ code: 'upstream_not_configured', upstream: 'firms' })
    expect(json.error.message).toBe('Upstream NASA FIRMS (firms) needs an API key: set ALLMENNING_FIRMS_MAP_KEY')
    expect(fake.requests.length).toBe(before)
  })

  it('answers a key FIRMS refuses as a 502 that says so, without showing the key', async () => {
    const { status, json, body } = await call(gatewayFor('not-the-key-0000'), sokndal)
    expect(status).toBe(502)
    expect(json.error).toMatchObject({ code: 'upstream_error', upstream: 'firms' })
    expect(json.error.message).toBe(
      'Upstream NASA FIRMS (firms) refused the configured MAP_KEY (HTTP 400: Invalid MAP_KEY.); check ALLMENNING_FIRMS_MAP_KEY',
    )
    expect(body).not.toContain('not-the-key-0000')
  })
})

describe('when FIRMS fails', () => {
  it.each([
    [
      'the transaction limit, inside HTTP 200',
      firmsText(200, 'Exceeding allowed transaction limit. Please try again later.'),
      'upstream_error',
      /rate limited the gateway \(Exceeding allowed transaction limit/,
    ],
    ['HTTP 429', firmsText(429, 'Too Many Requests'), 'upstream_error', /rate limited the gateway/],
    ['an error status', firmsText(500, 'Internal Server Error'), 'upstream_error', /answered HTTP 500/],
    [
      'an HTML page',
      {
        status: 200,
        headers: { 'content-type': 'text/html' },
        body: '<html><body>FIRMS is down for maintenance</body></html>',
      },
      'upstream_invalid_response',
      /something other than fire CSV: "<html>/,
    ],
    ['an empty body', firmsCsv(''), 'upstream_invalid_response', /empty body where CSV was expected/],
    [
      'no answer in time (it hangs)',
      { ...firmsCsv(viirsHeaderOnly), delayMs: 2000 },
      'upstream_timeout',
      /did not answer within 300 ms/,
    ],
  ])('answers %s with a 502 naming FIRMS', async (_name, reply, code, message) => {
    fake.route('*', () => reply)
    const { status, json, body } = await call(gatewayFor(FAKE_FIRMS_KEY, 300), sokndal)
    expect(status).toBe(502)
    expect(json.error).toMatchObject({ code, upstream: 'firms' })
    expect(json.error.message).toMatch(message)
    expect(body).not.toContain(FAKE_FIRMS_KEY)
  })
})

describe('reading FIRMS values', () => {
  it('pads acq_time and refuses impossible times', () => {
    expect(acquisitionTime('2026-07-02', '149')).toBe('2026-07-02T01:49:00Z')
    expect(acquisitionTime('2026-07-02', '7')).toBe('2026-07-02T00:07:00Z')
    expect(acquisitionTime('2026-07-02', '2359')).toBe('2026-07-02T23:59:00Z')
    expect(acquisitionTime('2026-07-02', '2460')).toBeNull()
    expect(acquisitionTime('02.07.2026', '1200')).toBeNull()
  })

  it('classes VIIRS letters and MODIS percentages alike', () => {
    expect(confidenceOf('h')).toEqual({ confidence: 'high', confidencePct: null })
    expect(confidenceOf('29')).toEqual({ confidence: 'low', confidencePct: 29 })
    expect(confidenceOf('30')).toEqual({ confidence: 'nominal', confidencePct: 30 })
    expect(confidenceOf('80')).toEqual({ confidence: 'high', confidencePct: 80 })
    expect(confidenceOf('x')).toEqual({ confidence: null, confidencePct: null })
  })

  it('reads columns by name, whatever their order, with CRLF line ends', () => {
    const csv = 'acq_time,acq_date,longitude,latitude,daynight,confidence\r\n5,2026-01-01,10.5,60.5,D,h\r\n'
    expect(parseFireCsv(csv, upstream).detections).toEqual([
      {
        lat: 60.5,
        lon: 10.5,
        acquiredAt: '2026-01-01T00:05:00Z',
        satellite: null,
        instrument: null,
        confidence: 'high',
        confidencePct: null,
        brightnessK: null,
        frpMw: null,
        daynight: 'day',
      },
    ])
  })

  it('draws the box around the circle, clamped to the globe', () => {
    expect(boundingBox({ lat: 0, lon: 0 }, 111.32)).toBe('-1,-1,1,1')
    expect(boundingBox({ lat: 89.9, lon: 179.9 }, 50)).toBe('-180,89.45,180,90')
  })
})
