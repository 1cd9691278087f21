import { readFileSync } from 'node:fs'
import * as v from 'valibot'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createGateway, type Gateway } from '@allmenning/core'
import { startFakeUpstream } from '@allmenning/core/testing'
import { createRequestBudget } from '../shared/request-budget.js'
import { createGetCurrentWeather } from './get-current-weather.js'
import { createGetForecast } from './get-forecast.js'
import { createForecastStore } from './forecast-store.js'
import { weather, type WeatherOptions } from './index.js'
import {
  FORECAST_LAST_MODIFIED,
  startFakeMetLocationforecast,
  type FakeMetLocationforecast,
} from './testing/fake-met-locationforecast.js'

const USER_AGENT = 'allmenning-test/1.0 ops@example.no'
let met: FakeMetLocationforecast

const gatewayFor = (options: WeatherOptions = {}, timeoutMs = 1000) =>
  createGateway({
    sources: [weather(options)],
    upstreams: { met_locationforecast: { baseUrl: met.baseUrl, timeoutMs } },
    upstream: { userAgent: USER_AGENT },
    onError: () => {},
  })

const call = async (gateway: Gateway, operation: string, query: string) => {
  const res = await gateway.handle({ method: 'GET', path: `/api/v1/kilder/weather/${operation}`, query, headers: {} })
  return { status: res.status, headers: res.headers, json: JSON.parse(res.body!) }
}

const currentHour = () => new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString().replace('.000Z', 'Z')

beforeAll(async () => {
  met = await startFakeMetLocationforecast()
})
afterAll(() => met.close())
beforeEach(() => {
  met.calls.length = 0
  met.expiresInSeconds = 1800
})

describe('get_current_weather', () => {
  it('answers the step that holds now, in the fields the public gateway’s clients read, asking MET politely', async () => {
    const gateway = gatewayFor()
    const { status, json } = await call(gateway, 'get_current_weather', 'lat=59.913868&lon=10.752245')
    expect(status).toBe(200)
    expect(json.parameters).toEqual({ lat: 59.914, lon: 10.752 })
    expect(v.is(createGetCurrentWeather(createForecastStore()).output, json.data)).toBe(true)
    expect(json.data).toEqual({
      time: currentHour(),
      temperature_c: -4.2,
      humidity_pct: 88.5,
      wind_speed_ms: 2.1,
      wind_direction_deg: 31.6,
      pressure_hpa: 1021.3,
      cloud_cover_pct: 96.1,
      precipitation_mm: 0,
      precipitation_period_hours: 1,
      symbol: 'cloudy',
      summary: 'Cloudy',
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:31:47Z$/),
      lat: 59.914,
      lon: 10.752,
      altitude_m: 14,
    })
    expect(json._meta.pagination).toBeUndefined()
    // MET's terms: an identifying User-Agent and no more than four decimals.
    expect(met.calls).toEqual([{ lat: '59.914', lon: '10.752', userAgent: USER_AGENT, ifModifiedSince: undefined }])
    expect(json._provenance.data.source_api).toBe(`${met.baseUrl}/compact?lat=59.914&lon=10.752`)
    expect(json._provenance.upstreams).toEqual([
      {
        id: 'met_locationforecast',
        name: 'MET Norway Locationforecast',
        publisher: 'MET Norway (Norwegian Meteorological Institute)',
        license: 'NLOD 2.0 / CC BY 4.0',
        source_api: `${met.baseUrl}/compact?lat=59.914&lon=10.752`,
        calls: 1,
      },
    ])
    expect(json.entities).toEqual([
      {
        type: 'point',
        id: '59.914,10.752',
        source: 'weather',
        _links: { self: '/api/v1/kilder/weather/get_forecast?lat=59.914&lon=10.752' },
      },
    ])
  })

  it('takes the request the public gateway’s clients send (a decimal comma too) and gives the fields they read', async () => {
    const { status, json } = await call(gatewayFor(), 'get_current_weather', 'lat=59,9139&lon=10,7522')
    expect(status).toBe(200)
    const { temperature_c, humidity_pct, wind_speed_ms, symbol, summary } = json.data
    expect({ temperature_c, humidity_pct, wind_speed_ms, symbol, summary }).toEqual({
      temperature_c: -4.2,
      humidity_pct: 88.5,
      wind_speed_ms: 2.1,
      symbol: 'cloudy',
      summary: 'Cloudy',
    })
    const forecast = await call(gatewayFor(), 'get_forecast', 'lat=59,9139&lon=10,7522')
    expect(Array.isArray(forecast.json.data)).toBe(true)
    expect(forecast.json.data[0]).toMatchObject({ temperature_c: -4.2, symbol: 'cloudy' })
  })

  it('shares one cache entry between requests in the same cell', async () => {
    const gateway = gatewayFor()
    await call(gateway, 'get_current_weather', 'lat=59.9141&lon=10.7519')
    const near = await call(gateway, 'get_current_weather', 'lat=59.91375&lon=10.75249')
    expect(near.status).toBe(200)
    expect(near.headers['cache-status']).toMatch(/hit/)
    expect(met.calls).toHaveLength(1)
  })

  it('rejects coordinates out of bounds with a 400 naming the parameter and the bound', async () => {
    const gateway = gatewayFor()
    const lat = await call(gateway, 'get_current_weather', 'lat=90.5&lon=10')
    expect(lat.status).toBe(400)
    expect(lat.json.error.details).toEqual([{ parameter: 'lat', problem: 'must be at most 90', rule: 'max_value' }])
    const lon = await call(gateway, 'get_current_weather', 'lat=59&lon=-180.01')
    expect(lon.json.error.details).toEqual([{ parameter: 'lon', problem: 'must be at least -180', rule: 'min_value' }])
    const missing = await call(gateway, 'get_current_weather', 'lat=59')
    expect(missing.json.error.details).toEqual([{ parameter: 'lon', problem: 'is required', rule: 'required' }])
    expect(met.calls).toHaveLength(0)
  })
})

describe('get_forecast', () => {
  it('lists every step, hourly then 6-hourly, with the period each precipitation covers', async () => {
    const gateway = gatewayFor()
    const { status, json } = await call(gateway, 'get_forecast', 'lat=59.914&lon=10.752')
    expect(status).toBe(200)
    expect(v.is(createGetForecast(createForecastStore()).output, json.data)).toBe(true)
    // As MET sends it: 54 hourly steps, then 31 six-hourly ones, about ten days in all.
    expect(json.data).toHaveLength(85)
    expect(json._meta.pagination).toEqual({
      limit: 100,
      offset: 0,
      returned: 85,
      has_more_results: false,
      next_offset: null,
      total: 85,
    })
    expect(json.data[0].time).toBe(currentHour())
    expect(json.data.slice(0, 6).map((s: { symbol: string }) => s.symbol)).toEqual([
      'cloudy',
      'cloudy',
      'lightsnow',
      'lightsnow',
      'cloudy',
      'partlycloudy_day',
    ])
    expect(json.data[2]).toMatchObject({ precipitation_mm: 0.2, precipitation_period_hours: 1 })
    // Near the switch MET drops next_6_hours and next_12_hours first: next_1_hours alone.
    expect(json.data[48]).toMatchObject({ precipitation_mm: 0.3, precipitation_period_hours: 1, symbol: 'lightsnow' })
    // The first six-hourly step (no next_1_hours), six hours apart from the next.
    expect(json.data[53]).toMatchObject({
      temperature_c: -6,
      precipitation_mm: 0,
      precipitation_period_hours: 6,
      symbol: 'clearsky_night',
    })
    expect(Date.parse(json.data[54].time) - Date.parse(json.data[53].time)).toBe(6 * 3_600_000)
    // The one before last has next_6_hours alone.
    expect(json.data[83]).toMatchObject({ precipitation_mm: 2.7, precipitation_period_hours: 6, symbol: 'rain' })
    // The last step has only instant values.
    expect(json.data[84]).toMatchObject({
      temperature_c: 1.3,
      precipitation_mm: null,
      precipitation_period_hours: null,
      symbol: null,
    })
  })

  it('reads the same memo as get_current_weather: one MET call while the answer has not expired', async () => {
    const gateway = gatewayFor()
    await call(gateway, 'get_current_weather', 'lat=60.1&lon=11.1')
    const forecast = await call(gateway, 'get_forecast', 'lat=60.1&lon=11.1')
    expect(forecast.status).toBe(200)
    expect(met.calls).toHaveLength(1)
    // Answered from memory: provenance still names the URL the data came from, with no call made for it.
    expect(forecast.json._provenance.data.source_api).toBe(`${met.baseUrl}/compact?lat=60.1&lon=11.1`)
    expect(forecast.json._provenance.upstreams[0]).toMatchObject({ id: 'met_locationforecast', calls: 0 })
  })

  it('revalidates an expired answer with If-Modified-Since and keeps it on a 304', async () => {
    met.expiresInSeconds = -60
    const gateway = gatewayFor()
    const current = await call(gateway, 'get_current_weather', 'lat=61&lon=9')
    const forecast = await call(gateway, 'get_forecast', 'lat=61&lon=9')
    expect(current.status).toBe(200)
    expect(forecast.status).toBe(200)
    expect(forecast.json.data).toHaveLength(85)
    expect(met.calls.map((c) => c.ifModifiedSince)).toEqual([undefined, FORECAST_LAST_MODIFIED])
  })

  it('pages the steps with limit and offset', async () => {
    const gateway = gatewayFor()
    const { json } = await call(gateway, 'get_forecast', 'lat=59.914&lon=10.752&limit=4&offset=82')
    expect(json.data).toHaveLength(3)
    expect(json._meta.pagination).toMatchObject({ limit: 4, offset: 82, returned: 3, has_more_results: false })
  })
})

describe('MET failures and MET’s rate limit', () => {
  it.each([
    ['a 500', () => ({ status: 500, body: 'Internal Server Error' }), 'upstream_error', /answered HTTP 500/],
    [
      'a 403 (MET refusing the caller)',
      () => ({ status: 403, body: '403 Forbidden' }),
      'upstream_error',
      /answered HTTP 403/,
    ],
    [
      'an HTML page',
      () => ({
        status: 200,
        headers: { 'content-type': 'text/html' },
        body: '<!DOCTYPE html><html><body><h1>Service Unavailable</h1></body></html>',
      }),
      'upstream_invalid_response',
      /not valid JSON/,
    ],
    [
      'JSON of another shape',
      () => ({
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: '{"type":"Feature","properties":{}}',
      }),
      'upstream_invalid_response',
      /forecast in an unexpected shape/,
    ],
    [
      'no answer in time',
      () => ({ status: 200, delayMs: 1500, body: '{}' }),
      'upstream_timeout',
      /did not answer within 300 ms/,
    ],
  ])('answers %s with a 502 naming MET, and no stack trace', async (_name, reply, code, message) => {
    const broken = await startFakeUpstream({ '/compact': reply })
    try {
      const gateway = createGateway({
        sources: [weather()],
        upstreams: { met_locationforecast: { baseUrl: broken.baseUrl, timeoutMs: 300 } },
        onError: () => {},
      })
      const { status, json } = await call(gateway, 'get_current_weather', 'lat=59.914&lon=10.752')
      expect(status).toBe(502)
      expect(json.error).toMatchObject({ status: 502, code, upstream: 'met_locationforecast' })
      expect(json.error.message).toMatch(/^Upstream MET Norway Locationforecast \(met_locationforecast\) /)
      expect(json.error.message).toMatch(message)
      expect(JSON.stringify(json)).not.toMatch(/\.ts:\d+/)
    } finally {
      await broken.close()
    }
  })

  it('does not keep a forecast without steps: a 502 naming MET, and the next call asks again', async () => {
    const recorded = readFileSync(new URL('./testing/fixtures/compact-oslo.json', import.meta.url), 'utf8')
    const stepless = JSON.stringify({
      ...JSON.parse(recorded),
      properties: { ...JSON.parse(recorded).properties, timeseries: [] },
    })
    let served = 0
    const fake = await startFakeUpstream({
      '/compact': () => ({
        status: 200,
        headers: { 'content-type': 'application/json', expires: new Date(Date.now() + 1_800_000).toUTCString() },
        body: served++ === 0 ? stepless : recorded,
      }),
    })
    try {
      const gateway = createGateway({
        sources: [weather()],
        upstreams: { met_locationforecast: { baseUrl: fake.baseUrl } },
        onError: () => {},
      })
      const first = await call(gateway, 'get_forecast', 'lat=59.914&lon=10.752')
      expect(first.status).toBe(502)
      expect(first.headers['cache-control']).toBe('no-store')
      expect(first.json.error.message).toMatch(
        /^Upstream MET Norway Locationforecast \(met_locationforecast\) sent an implausible forecast \(0 items/,
      )
      const second = await call(gateway, 'get_forecast', 'lat=59.914&lon=10.752')
      expect(second.status).toBe(200)
      expect(second.json.data).toHaveLength(85)
      expect(served).toBe(2)
    } finally {
      await fake.close()
    }
  })

  it('answers from the last good forecast, saying it is stale, when a revalidation brings one without steps', async () => {
    const recorded = readFileSync(new URL('./testing/fixtures/compact-oslo.json', import.meta.url), 'utf8')
    const stepless = JSON.stringify({
      ...JSON.parse(recorded),
      properties: { ...JSON.parse(recorded).properties, timeseries: [] },
    })
    let body = recorded
    const fake = await startFakeUpstream({
      '/compact': () => ({
        status: 200,
        headers: { 'content-type': 'application/json', expires: new Date(Date.now() + 1_800_000).toUTCString() },
        body,
      }),
    })
    const realNow = Date.now
    try {
      const gateway = createGateway({
        sources: [weather()],
        upstreams: { met_locationforecast: { baseUrl: fake.baseUrl } },
        onError: () => {},
      })
      const first = await call(gateway, 'get_forecast', 'lat=59.914&lon=10.752')
      expect(first.json.data).toHaveLength(85)
      body = stepless
      const later = realNow() + 2 * 3_600_000
      Date.now = () => later
      const stale = await call(gateway, 'get_forecast', 'lat=59.914&lon=10.752')
      expect(stale.status).toBe(200)
      expect(stale.json.data).toEqual(first.json.data)
      expect(stale.json._meta).toMatchObject({
        stale: true,
        stale_reason: expect.stringMatching(/sent an implausible forecast \(0 items/),
      })
      body = recorded
      expect((await call(gateway, 'get_forecast', 'lat=59.914&lon=10.752')).json._meta.stale).toBe(false)
    } finally {
      Date.now = realNow
      await fake.close()
    }
  })

  it('keeps within the request budget: a call that would exceed it is refused with a 502, not sent', async () => {
    const gateway = gatewayFor({ requestBudget: createRequestBudget({ requests: 1, perMs: 60_000, maxWaitMs: 0 }) })
    expect((await call(gateway, 'get_current_weather', 'lat=62&lon=10')).status).toBe(200)
    const refused = await call(gateway, 'get_current_weather', 'lat=63&lon=10')
    expect(refused.status).toBe(502)
    expect(refused.json.error.code).toBe('upstream_unavailable')
    expect(refused.json.error.message).toMatch(/was not called: the gateway keeps to 1 requests per 60 s there/)
    expect(met.calls).toHaveLength(1)
  })
})

describe('a deprecated product version', () => {
  it('serves MET’s 203 answer and warns the operator once', async () => {
    const body = readFileSync(new URL('./testing/fixtures/compact-oslo.json', import.meta.url), 'utf8')
    const deprecated = await startFakeUpstream({
      '/compact': () => ({ status: 203, headers: { 'content-type': 'application/json' }, body }),
    })
    const warnings: unknown[] = []
    const warn = console.warn
    console.warn = (...args: unknown[]) => void warnings.push(args.join(' '))
    try {
      const gateway = createGateway({
        sources: [weather()],
        upstreams: { met_locationforecast: { baseUrl: deprecated.baseUrl } },
        onError: () => {},
      })
      const first = await call(gateway, 'get_forecast', 'lat=59.914&lon=10.752')
      await call(gateway, 'get_forecast', 'lat=60.914&lon=10.752')
      expect(first.status).toBe(200)
      expect(first.json.data).toHaveLength(85)
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toMatch(/answered 203: Locationforecast 2.0 is deprecated/)
    } finally {
      console.warn = warn
      await deprecated.close()
    }
  })
})
