import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkSource, createTestGateway, type FakeUpstream, type TestGateway } from '@allmenning/core/testing'
import { createApp } from './app.js'
import { startFakeLocationforecast, startFakeMetAlerts } from './testing/fake-met.js'
import { getAlerts, getForecast, weather } from './weather.js'

let met: FakeUpstream
let alerts: FakeUpstream
let gateway: TestGateway

beforeAll(async () => {
  ;[met, alerts] = await Promise.all([startFakeLocationforecast(), startFakeMetAlerts()])
  gateway = createTestGateway({
    sources: weather(),
    upstreams: { met, met_alerts: alerts },
    upstream: { userAgent: 'allmenning-test/1.0 ops@example.no' },
  })
})
afterAll(() => Promise.all([met.close(), alerts.close()]))

describe('met_varsel', () => {
  it('passes the source check: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming MET, entity search', async () => {
    const report = await checkSource(weather, {
      upstreams: { met, met_alerts: alerts },
      examples: { get_forecast: { lat: 59.9139, lon: 10.7522 }, get_alerts: [{}, { county: '46' }] },
      search: 'Vestland',
    })
    expect(report.operations).toEqual(['get_forecast', 'get_alerts'])
    expect(report.passed).toContain('get_alerts: limit and offset page the list')
    expect(report.notes).toEqual([])
  })

  it('get_forecast: maps the hours, rounds the coordinates as MET requires, and identifies itself to MET', async () => {
    const { status, json } = await gateway.call('met_varsel', 'get_forecast', 'lat=59.91387&lon=10.752245')
    expect(status).toBe(200)
    expect(json.parameters).toEqual({ lat: 59.9139, lon: 10.7522, limit: 25, offset: 0 })
    expect(v.is(getForecast.output, json.data)).toBe(true)
    expect(json.data[0]).toEqual({
      time: '2026-11-22T20:00:00Z',
      air_temperature: -2.4,
      wind_speed: 2.7,
      wind_from_direction: 24.1,
      relative_humidity: 91.3,
      cloud_area_fraction: 87.5,
      precipitation_next_hour: 0.3,
      symbol_next_hour: 'lightsnow',
    })
    // A 6-hour step has no next_1_hours: null, not a guess.
    expect(json.data[2]).toMatchObject({
      time: '2026-11-25T00:00:00Z',
      precipitation_next_hour: null,
      symbol_next_hour: null,
      relative_humidity: null,
    })
    expect(json._provenance.data.source_api).toBe(`${met.baseUrl}/compact?lat=59.9139&lon=10.7522`)
    expect(met.received.at(-1)?.headers['user-agent']).toBe('allmenning-test/1.0 ops@example.no')
  })

  it('get_alerts: the warnings in force as a named list, with the counties as entities', async () => {
    const { status, json } = await gateway.call('met_varsel', 'get_alerts', { county: '46' })
    expect(status).toBe(200)
    expect(v.is(getAlerts.output, { updated_at: json.data.updated_at, alerts: json.data.alerts })).toBe(true)
    expect(json.data.alerts.map((a: { event: string; level: string }) => `${a.event}:${a.level}`)).toEqual([
      'wind:yellow',
      'rain:orange',
    ])
    expect(json.data.alerts[1]).toMatchObject({
      area: 'Sogn og Sunnfjord',
      starts: '2026-11-23T06:00:00+00:00',
      ends: '2026-11-24T06:00:00+00:00',
      description: 'Heavy rain, 90-130 mm in 24 hours, locally more.',
      counties: ['46'],
    })
    expect(json.data.has_more_results).toBe(false)
    expect(json._meta.pagination).toEqual({
      limit: 25,
      offset: 0,
      returned: 2,
      has_more_results: false,
      next_offset: null,
      total: 2,
    })
    expect(json.entities).toEqual([
      {
        type: 'county',
        id: '46',
        name: 'Vestland',
        source: 'met_varsel',
        _links: { self: '/api/v1/kilder/met_varsel/get_alerts?county=46' },
      },
    ])
    expect(alerts.received.at(-1)?.query.toString()).toBe('lang=en&county=46')
  })

  it('get_alerts: a gale at sea belongs to no county, and the list pages', async () => {
    const { json } = await gateway.call('met_varsel', 'get_alerts', { limit: 1, offset: 2 })
    expect(json.data.alerts).toEqual([
      expect.objectContaining({
        event: 'gale',
        area: 'Lista - Utsira',
        counties: [],
        instruction: 'Consider staying ashore.',
      }),
    ])
    expect(json.data.has_more_results).toBe(false)
    expect(json.entities).toEqual([])
  })

  it('gets the same descriptors, bounds and errors as a built-in source', async () => {
    const bad = await gateway.call('met_varsel', 'get_forecast', 'lat=91&lon=10')
    expect(bad.status).toBe(400)
    expect(bad.json.error.details).toEqual([{ parameter: 'lat', problem: 'must be at most 90', rule: 'max_value' }])
    const county = await gateway.call('met_varsel', 'get_alerts', { county: '12' })
    expect(county.json.error.details[0]).toMatchObject({ parameter: 'county', rule: 'enum' })
    const schema = await gateway.get('/api/v1/kilder/met_varsel/get_forecast/schema')
    expect(schema.json.signature).toBe(
      'get_forecast(lat: number, required; lon: number, required; limit: integer, optional, default 25; offset: integer, optional, default 0)',
    )
    expect(schema.json.output_fields).toContain('[].precipitation_next_hour')
  })

  it('finds counties by name for the cross-source search', async () => {
    const { json } = await gateway.get('/api/v1/sok/alle', { q: 'vestland', mode: 'entities' })
    expect(json.results[0]).toMatchObject({ type: 'county', id: '46', name: 'Vestland', source: 'met_varsel' })
    expect(json.results[0]._links.api).toBe('/api/v1/kilder/met_varsel/get_alerts?county=46')
  })
})

describe('the example app', () => {
  it('serves the custom source beside every built-in one, its upstreams overridable from the environment', async () => {
    const app = createApp({
      ALLMENNING_UPSTREAM_MET: met.baseUrl,
      ALLMENNING_UPSTREAM_MET_ALERTS: alerts.baseUrl,
      ALLMENNING_CONTACT: 'ops@example.no',
    })
    const server = app.listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    try {
      const { port } = server.address() as { port: number }
      const index = (await (await fetch(`http://127.0.0.1:${port}/api/v1/`)).json()) as { sources: { id: string }[] }
      expect(index.sources.map((s) => s.id)).toEqual(
        expect.arrayContaining(['met_varsel', 'weather', 'firmafakta', 'avinor', 'statnett']),
      )
      expect(
        (await fetch(`http://127.0.0.1:${port}/api/v1/kilder/met_varsel/get_forecast?lat=59.91&lon=10.75`)).status,
      ).toBe(200)
      expect((await fetch(`http://127.0.0.1:${port}/api/v1/kilder/met_varsel/get_alerts`)).status).toBe(200)
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
