import { createApp } from './app.js'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, type Gateway } from '@allmenning/core'
import { startFakeUpstream, type FakeUpstream } from '@allmenning/core/testing'
import { getForecast, weather } from './weather.js'

// Trimmed from the shape of a real locationforecast/2.0/compact answer: hourly steps with
// next_1_hours, then a 6-hour step without it.
const compact = {
  type: 'Feature',
  geometry: { type: 'Point', coordinates: [10.7522, 59.9139, 15] },
  properties: {
    meta: { updated_at: '2026-11-22T19:31:12Z', units: { air_temperature: 'celsius', wind_speed: 'm/s' } },
    timeseries: [
      {
        time: '2026-11-22T20:00:00Z',
        data: {
          instant: { details: { air_pressure_at_sea_level: 1011.2, air_temperature: -2.4, cloud_area_fraction: 87.5, relative_humidity: 91.3, wind_from_direction: 24.1, wind_speed: 2.7 } },
          next_12_hours: { summary: { symbol_code: 'cloudy' }, details: {} },
          next_1_hours: { summary: { symbol_code: 'lightsnow' }, details: { precipitation_amount: 0.3 } },
          next_6_hours: { summary: { symbol_code: 'snow' }, details: { precipitation_amount: 2.1 } },
        },
      },
      {
        time: '2026-11-25T00:00:00Z',
        data: {
          instant: { details: { air_temperature: -5.1, wind_speed: 1.2 } },
          next_6_hours: { summary: { symbol_code: 'clearsky_night' }, details: { precipitation_amount: 0 } },
        },
      },
    ],
  },
}

let met: FakeUpstream
let gateway: Gateway
const userAgents: (string | undefined)[] = []

beforeAll(async () => {
  met = await startFakeUpstream({
    '/compact': (url, req) => {
      userAgents.push(req.headers['user-agent'])
      // MET refuses anonymous callers and coordinates with more than four decimals.
      if (!req.headers['user-agent']) return { status: 403, body: 'Forbidden' }
      if (/\.\d{5,}/.test(url.search)) return { status: 403, body: 'Forbidden' }
      return { status: 200, headers: { 'content-type': 'application/json', expires: 'Sun, 22 Nov 2026 20:30:00 GMT' }, body: JSON.stringify(compact) }
    },
  })
  gateway = createGateway({ sources: [weather()], upstreams: { met: { baseUrl: met.baseUrl } }, upstream: { userAgent: 'allmenning-test/1.0 ops@example.no' } })
})
afterAll(() => met.close())

const call = async (query: string) => {
  const res = await gateway.handle({ method: 'GET', path: '/api/v1/kilder/met_forecast/get_forecast', query, headers: {} })
  return { status: res.status, json: JSON.parse(res.body!) }
}

describe('a custom source made with the public API', () => {
  it('answers the envelope with mapped data, identifying itself to MET', async () => {
    const { status, json } = await call('lat=59.91387&lon=10.752245')
    expect(status).toBe(200)
    expect(json.parameters).toEqual({ lat: 59.9139, lon: 10.7522, limit: 25, offset: 0 })
    expect(v.is(getForecast.output, json.data)).toBe(true)
    expect(json.data).toEqual([
      { time: '2026-11-22T20:00:00Z', air_temperature: -2.4, wind_speed: 2.7, wind_from_direction: 24.1, relative_humidity: 91.3, cloud_area_fraction: 87.5, precipitation_next_hour: 0.3, symbol_next_hour: 'lightsnow' },
      { time: '2026-11-25T00:00:00Z', air_temperature: -5.1, wind_speed: 1.2, wind_from_direction: null, relative_humidity: null, cloud_area_fraction: null, precipitation_next_hour: null, symbol_next_hour: null },
    ])
    expect(json._provenance.data.source_api).toBe(`${met.baseUrl}/compact?lat=59.9139&lon=10.7522`)
    expect(userAgents.at(-1)).toBe('allmenning-test/1.0 ops@example.no')
  })

  it('gets the same descriptors, bounds and errors as a built-in source', async () => {
    const bad = await call('lat=91&lon=10')
    expect(bad.status).toBe(400)
    expect(bad.json.error.details).toEqual([{ parameter: 'lat', problem: 'must be at most 90', rule: 'max_value' }])
    const schema = await gateway.handle({ method: 'GET', path: '/api/v1/kilder/met_forecast/get_forecast/schema', query: '', headers: {} })
    const body = JSON.parse(schema.body!)
    expect(body.signature).toBe('get_forecast(lat: number, required; lon: number, required; limit: integer, optional, default 25; offset: integer, optional, default 0)')
    expect(body.output_fields).toContain('[].precipitation_next_hour')
  })
})

describe('the example app', () => {
  it('serves the custom source beside every built-in one, its upstream overridable from the environment', async () => {
    const app = createApp({ ALLMENNING_UPSTREAM_MET: met.baseUrl, ALLMENNING_USER_AGENT: 'allmenning-test/1.0 ops@example.no' })
    const server = app.listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    try {
      const { port } = server.address() as { port: number }
      const index = (await (await fetch(`http://127.0.0.1:${port}/api/v1/`)).json()) as { sources: { id: string }[] }
      expect(index.sources.map((s) => s.id)).toEqual(expect.arrayContaining(['met_forecast', 'weather', 'firmafakta', 'avinor', 'statnett']))
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/kilder/met_forecast/get_forecast?lat=59.91&lon=10.75`)
      expect(res.status).toBe(200)
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
