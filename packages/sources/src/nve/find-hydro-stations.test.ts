import { inspect } from 'node:util'
import * as v from 'valibot'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, type Gateway } from '@allmenning/core'
import type { GatewayObserver } from '@allmenning/core/extension'
import { testUpstreamClient, type FakeUpstream } from '@allmenning/core/testing'
import { createFindHydroStations } from './find-hydro-stations.js'
import { hydroStationsFrom } from './hydro-station-list.js'
import { nve } from './index.js'
import { nveHydapi } from './nve-upstreams.js'
import { FAKE_HYDAPI_KEY, hydapiTime, startFakeHydapi } from './testing/fake-hydapi.js'

let hydapi: FakeUpstream

beforeAll(async () => {
  hydapi = await startFakeHydapi()
})
afterAll(() => hydapi.close())
afterEach(() => hydapi.failWith(undefined))

const gatewayFor = (
  hydapiKey: string | undefined,
  extra: { observers?: GatewayObserver[]; onError?: (e: unknown) => void; timeoutMs?: number } = {},
) =>
  createGateway({
    sources: [nve({ hydapiKey })],
    upstreams: { nve_hydapi: { baseUrl: hydapi.baseUrl, timeoutMs: extra.timeoutMs ?? 2000 } },
    onError: extra.onError ?? (() => {}),
    ...(extra.observers ? { observers: extra.observers } : {}),
  })
const call = async (g: Gateway, query: string) => {
  const res = await g.handle({ method: 'GET', path: '/api/v1/kilder/nve/find_hydro_stations', query, headers: {} })
  return { status: res.status, body: res.body!, json: JSON.parse(res.body!) }
}
const oslo = 'lat=59.91&lon=10.75'
const ids = (json: { data: { stations: { station_id: string }[] } }) => json.data.stations.map((s) => s.station_id)
const since = (from: number) => hydapi.received.slice(from)
/** The fake's recorded times, moved to now as it answers them. */
const at = (recorded: string) => hydapiTime(recorded)
const HOUR = '2026-09-04T18:00:00Z'

describe('find_hydro_stations', () => {
  it('answers the stations with recent data near a point, nearest first, in the shape clients read, with their latest level and discharge', async () => {
    const before = hydapi.received.length
    const { status, json } = await call(
      gatewayFor(FAKE_HYDAPI_KEY),
      `${oslo}&radius_km=20&has_recent_data=true&limit=100`,
    )
    expect(status).toBe(200)
    expect(v.is(createFindHydroStations(undefined, undefined, undefined).output, json.data)).toBe(true)
    // Sognsvann is "Aktiv" but silent since March, Hammeren closed, Frognerseteren has no position, Lierelv is 31 km off.
    expect(ids(json)).toEqual(['6.78.0', '8.2.0', '6.9.0'])
    expect(json.data).toMatchObject({
      count: 3,
      returned: 3,
      limit: 100,
      offset: 0,
      has_more_results: false,
      truncated: false,
      radius_km: 20,
    })
    expect(json.data.stations[0]).toEqual({
      station_id: '6.78.0',
      station_name: 'Alna v/Kværnerbyen',
      river: 'Alna',
      latitude: 59.90422,
      longitude: 10.78709,
      masl: 12,
      municipality: 'Oslo',
      municipality_number: '0301',
      county: 'Oslo',
      status: 'Aktiv',
      distance_km: 2.165,
      latest_observation_at: at(HOUR),
      has_recent_data: true,
      series: [
        {
          name: 'Vannstand',
          name_en: 'Stage',
          parameter: 1000,
          unit: 'm',
          first_data_at: at('1998-09-01T11:00:00Z'),
          latest_data_at: at(HOUR),
        },
        {
          name: 'Vannføring',
          name_en: 'Discharge',
          parameter: 1001,
          unit: 'm³/s',
          first_data_at: at('1998-09-01T11:00:00Z'),
          latest_data_at: at(HOUR),
        },
      ],
      water_level: { value: 0.412207, unit: 'm', observed_at: at(HOUR) },
      discharge: { value: 0.871154, unit: 'm³/s', observed_at: at(HOUR) },
    })
    expect(json.data.stations[2].series.map((s: { name_en: string }) => s.name_en)).toEqual([
      'Stage',
      'Discharge',
      'Water temperature',
    ])
    // One station list (the active one), then one Observations call per parameter for the page's stations, all with the key.
    const asked = since(before)
    expect(asked.map((r) => `${r.path}?${r.query}`)).toEqual([
      '/Stations?Active=0',
      '/Observations?StationId=6.78.0%2C8.2.0%2C6.9.0&Parameter=1000&ResolutionTime=0',
      '/Observations?StationId=6.78.0%2C8.2.0%2C6.9.0&Parameter=1001&ResolutionTime=0',
    ])
    expect(asked.every((r) => r.headers['x-api-key'] === FAKE_HYDAPI_KEY)).toBe(true)
    expect(json._provenance.upstreams[0]).toMatchObject({ id: 'nve_hydapi', license: 'NLOD 2.0' })
    expect(json._provenance.data.source_api).toBe(`${hydapi.baseUrl}/Stations?Active=0`)
    expect(json._raw_values).toEqual({ stations_from_hydapi: 8 })
    const cutoff = Date.parse(json.data.recent_since)
    expect(Date.now() - cutoff).toBeGreaterThanOrEqual(7 * 86_400_000)
    expect(Date.now() - cutoff).toBeLessThan(7 * 86_400_000 + 60_000)
  })

  it('keeps 20 km as the default radius, has_recent_data=true as the default, and reaches farther when asked', async () => {
    const g = gatewayFor(FAKE_HYDAPI_KEY)
    expect(ids((await call(g, oslo)).json)).toEqual(['6.78.0', '8.2.0', '6.9.0'])
    expect(ids((await call(g, `${oslo}&radius_km=40`)).json)).toEqual(['6.78.0', '8.2.0', '6.9.0', '1.200.0'])
  })

  it('with has_recent_data=false lists every station, closed archive stations and silent ones too, from the whole list', async () => {
    const before = hydapi.received.length
    const { json } = await call(gatewayFor(FAKE_HYDAPI_KEY), `${oslo}&has_recent_data=false`)
    expect(ids(json)).toEqual(['6.78.0', '6.55.0', '8.2.0', '6.6.0', '6.9.0'])
    expect(since(before)[0]!.query.get('Active')).toBe('1')
    const hammeren = json.data.stations.find((s: { station_id: string }) => s.station_id === '6.6.0')
    expect(hammeren).toMatchObject({
      status: 'Nedlagt',
      river: null,
      has_recent_data: false,
      latest_observation_at: at('1975-12-31T11:00:00Z'),
      water_level: { value: 2.31, unit: 'm', observed_at: at('1975-12-31T11:00:00Z') },
      discharge: null,
    })
    expect(json.data.stations.find((s: { station_id: string }) => s.station_id === '6.55.0')).toMatchObject({
      status: 'Aktiv',
      has_recent_data: false,
    })
    expect(json._raw_values).toEqual({ stations_from_hydapi: 9, stations_without_position_or_shape: 1 })
  })

  it('pages with limit and offset, asks only for the page’s latest values, and keeps the list and the values between calls', async () => {
    const g = gatewayFor(FAKE_HYDAPI_KEY)
    const before = hydapi.received.length
    const first = await call(g, `${oslo}&limit=2`)
    expect(ids(first.json)).toEqual(['6.78.0', '8.2.0'])
    expect(first.json.data).toMatchObject({
      count: 3,
      returned: 2,
      limit: 2,
      offset: 0,
      has_more_results: true,
      truncated: true,
    })
    expect(first.json._meta.pagination).toMatchObject({
      limit: 2,
      offset: 0,
      returned: 2,
      has_more_results: true,
      total: 3,
    })
    expect(since(before).map((r) => r.query.get('StationId'))).toEqual([null, '6.78.0,8.2.0', '6.78.0,8.2.0'])
    const middle = hydapi.received.length
    const second = await call(g, `${oslo}&limit=2&offset=1`)
    expect(ids(second.json)).toEqual(['8.2.0', '6.9.0'])
    expect(second.json.data).toMatchObject({ returned: 2, has_more_results: false, truncated: false })
    // The list is kept; of the page's stations only 6.9.0 was not known yet.
    expect(since(middle).map((r) => `${r.path} ${r.query.get('StationId')} ${r.query.get('Parameter')}`)).toEqual([
      '/Observations 6.9.0 1000',
      '/Observations 6.9.0 1001',
    ])
    expect(second.json.data.stations[0].water_level.value).toBe(2.035412)
  })

  it('answers a value HydAPI sends as null as null, and asks only for the parameters a station measures as it happens', async () => {
    const before = hydapi.received.length
    const { json } = await call(gatewayFor(FAKE_HYDAPI_KEY), 'lat=62.65&lon=8.69&radius_km=5')
    expect(ids(json)).toEqual(['109.42.0'])
    expect(json.data.stations[0]).toMatchObject({
      water_level: null,
      discharge: { value: null, unit: 'm³/s', observed_at: at(HOUR) },
    })
    expect(since(before).map((r) => r.query.get('Parameter'))).toEqual([null, '1001'])
  })

  it('answers an empty list, and calls no Observations, where no station is near', async () => {
    const before = hydapi.received.length
    const { status, json } = await call(gatewayFor(FAKE_HYDAPI_KEY), 'lat=69.65&lon=18.96')
    expect(status).toBe(200)
    expect(json.data).toMatchObject({ count: 0, returned: 0, stations: [], has_more_results: false })
    expect(since(before).map((r) => r.path)).toEqual(['/Stations'])
  })

  it('refuses bad input with a 400 naming the parameter, before asking HydAPI', async () => {
    const before = hydapi.received.length
    for (const [query, parameter] of [
      ['lat=59.91', 'lon'],
      [`${oslo}&radius_km=0`, 'radius_km'],
      [`${oslo}&radius_km=500`, 'radius_km'],
      [`${oslo}&has_recent_data=maybe`, 'has_recent_data'],
      [`${oslo}&limit=101`, 'limit'],
    ] as const) {
      const { status, json } = await call(gatewayFor(FAKE_HYDAPI_KEY), query)
      expect(status, query).toBe(400)
      expect(json.error.details[0].parameter, query).toBe(parameter)
    }
    expect(hydapi.received.length).toBe(before)
  })
})

describe('find_hydro_stations and the HydAPI key', () => {
  it('answers 502 upstream_not_configured naming the variable, without calling HydAPI, when no key is given', async () => {
    const before = hydapi.received.length
    for (const key of [undefined, '   ']) {
      const { status, json } = await call(gatewayFor(key), oslo)
      expect(status).toBe(502)
      expect(json.error).toMatchObject({ status: 502, code: 'upstream_not_configured', upstream: 'nve_hydapi' })
      expect(json.error.message).toBe(
        'Upstream NVE HydAPI (hydrological data) (nve_hydapi) needs an API key: set ALLMENNING_NVE_HYDAPI_KEY',
      )
    }
    expect(hydapi.received.length).toBe(before)
  })

  it('still answers the warnings without a key', async () => {
    const g = createGateway({ sources: [nve()], onError: () => {} })
    const res = await g.handle({ method: 'GET', path: '/api/v1/kilder/nve', query: '', headers: {} })
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body!).operations.map((o: { name: string }) => o.name)).toEqual([
      'get_warnings',
      'find_hydro_stations',
    ])
  })

  it('answers a refused key as a 502 naming HydAPI and the variable to check', async () => {
    const { status, json } = await call(gatewayFor('wrong-key-42'), oslo)
    expect(status).toBe(502)
    expect(json.error).toMatchObject({ code: 'upstream_error', upstream: 'nve_hydapi' })
    expect(json.error.message).toMatch(/refused the configured API key \(HTTP 401\); check ALLMENNING_NVE_HYDAPI_KEY/)
  })

  it('never shows the key: not in an answer, a URL it names, an error, nor anything the gateway tells its observers', async () => {
    const heard: unknown[] = []
    const observer: GatewayObserver = {
      requestFinished: (e) => void heard.push(e),
      upstreamCallStarted: (e) => void heard.push(e),
      upstreamCallFinished: (e) => void heard.push(e),
      cacheLookup: (e) => void heard.push(e),
    }
    const errors: unknown[] = []
    const secret = 'S3cr3t-hydapi-key/with+chars=='
    const wrong = await call(gatewayFor(secret, { observers: [observer], onError: (e) => errors.push(e) }), oslo)
    hydapi.failWith(
      {
        status: 500,
        headers: { 'content-type': 'application/problem+json' },
        body: '{"title":"Internal Server Error","status":500}',
      },
      { times: 1 },
    )
    const failing = await call(
      gatewayFor(FAKE_HYDAPI_KEY, { observers: [observer], onError: (e) => errors.push(e) }),
      oslo,
    )
    const ok = await call(gatewayFor(FAKE_HYDAPI_KEY, { observers: [observer], onError: (e) => errors.push(e) }), oslo)
    expect([wrong.status, failing.status, ok.status]).toEqual([502, 502, 200])
    const everything = [
      wrong.body,
      failing.body,
      ok.body,
      inspect(heard, { depth: 10 }),
      inspect(errors, { depth: 10 }),
      ...errors.map((e) => (e as Error).stack ?? ''),
    ].join('\n')
    for (const key of [secret, encodeURIComponent(secret), FAKE_HYDAPI_KEY]) expect(everything).not.toContain(key)
    expect(heard.length).toBeGreaterThan(0)
  })
})

describe('find_hydro_stations when HydAPI fails', () => {
  it.each([
    [
      'an error status',
      { status: 503, headers: { 'content-type': 'text/html' }, body: '<html><body>Service Unavailable</body></html>' },
      'upstream_error',
      /answered HTTP 503/,
    ],
    [
      'an HTML page with status 200',
      { status: 200, headers: { 'content-type': 'text/html' }, body: '<!DOCTYPE html><html></html>' },
      'upstream_invalid_response',
      /not valid JSON/,
    ],
    [
      'a list without stations',
      {
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: '{"itemCount":0,"data":[]}',
      },
      'upstream_invalid_response',
      /implausible station list \(0 items, at least one expected\)/,
    ],
    [
      'something that is not its envelope',
      { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"data":"none"}' },
      'upstream_invalid_response',
      /station list/,
    ],
    [
      'no answer in time (it hangs)',
      { status: 200, delayMs: 2000, body: '{}' },
      'upstream_timeout',
      /did not answer within 300 ms/,
    ],
  ])('answers %s with a 502 naming HydAPI, without a stack trace', async (_name, reply, code, message) => {
    hydapi.failWith(reply, { route: '/Stations', times: 1 })
    const { status, json, body } = await call(gatewayFor(FAKE_HYDAPI_KEY, { timeoutMs: 300 }), oslo)
    expect(status).toBe(502)
    expect(json.error).toMatchObject({ code, upstream: 'nve_hydapi' })
    expect(json.error.message).toMatch(message)
    expect(body).not.toMatch(/\.ts:\d+/)
  })

  it('answers a failing Observations call with a 502 naming HydAPI, and its 404 (no such series) as no value', async () => {
    hydapi.failWith(
      {
        status: 500,
        headers: { 'content-type': 'application/problem+json' },
        body: '{"title":"Internal Server Error","status":500}',
      },
      { route: '/Observations', times: 1 },
    )
    const failed = await call(gatewayFor(FAKE_HYDAPI_KEY), oslo)
    expect(failed.status).toBe(502)
    expect(failed.json.error).toMatchObject({
      upstream: 'nve_hydapi',
      message: expect.stringMatching(/answered HTTP 500/),
    })
    // Until reset: the first request's other Observations call may still arrive after its 500.
    hydapi.failWith(
      {
        status: 404,
        headers: { 'content-type': 'application/problem+json' },
        body: '{"title":"Not Found","status":404}',
      },
      { route: '/Observations' },
    )
    const none = await call(gatewayFor(FAKE_HYDAPI_KEY), oslo)
    expect(none.status).toBe(200)
    expect(
      none.json.data.stations.map((s: { water_level: unknown; discharge: unknown }) => [s.water_level, s.discharge]),
    ).toEqual([
      [null, null],
      [null, null],
      [null, null],
    ])
  })
})

describe('the station list', () => {
  const client = () => testUpstreamClient(nveHydapi, 'http://127.0.0.1:9')

  it('leaves out, and counts, a station without a position or with a field of the wrong type, and keeps the rest', () => {
    const body = {
      itemCount: 3,
      data: [
        { stationId: '1.1.0', stationName: 'Ok', latitude: 59.1, longitude: 10.1, seriesList: null },
        { stationId: '1.2.0', stationName: 'No position', latitude: null, longitude: null },
        { stationId: 123, stationName: 'Id as a number', latitude: 59.2, longitude: 10.2 },
      ],
    }
    const { stations, skipped } = hydroStationsFrom(client(), body)
    expect(stations.map((s) => s.id)).toEqual(['1.1.0'])
    expect(stations[0]).toMatchObject({ river: null, series: [], latestDataAt: null })
    expect(skipped).toBe(2)
  })

  it('makes one series of a parameter kept in several versions, spanning them, in the unit of the newest', () => {
    const resolution = (from: string, to: string, resTime = 1440) => ({ resTime, dataFromTime: from, dataToTime: to })
    const { stations } = hydroStationsFrom(client(), {
      data: [
        {
          stationId: '109.42.0',
          latitude: 62.6,
          longitude: 8.7,
          seriesList: [
            {
              parameterName: 'Vannføring',
              parameter: 1001,
              versionNo: 1,
              unit: 'l/s',
              resolutionList: [resolution('1975-01-03T11:00:00Z', '2008-01-29T11:00:00Z', 0)],
            },
            {
              parameterName: 'Vannføring',
              parameter: 1001,
              versionNo: 2,
              unit: 'm³/s',
              resolutionList: [resolution('2008-01-30T12:00:00Z', '2026-09-20T09:00:00Z')],
            },
          ],
        },
      ],
    })
    expect(stations[0]!.series).toEqual([
      {
        parameter: 1001,
        name: 'Vannføring',
        unit: 'm³/s',
        firstDataAt: '1975-01-03T11:00:00Z',
        latestDataAt: '2026-09-20T09:00:00Z',
        instantaneous: true,
      },
    ])
    expect(stations[0]!.latestDataAt).toBe('2026-09-20T09:00:00Z')
  })
})

describe('the places bundle', () => {
  it('fills hydro_stations in the hazards section, or says which variable to set', async () => {
    const bundle = async (g: Gateway) => {
      const res = await g.handle({
        method: 'GET',
        path: '/api/v1/steder/59.91/10.75',
        query: 'fields=hydro_stations',
        headers: {},
      })
      return { status: res.status, json: JSON.parse(res.body!) }
    }
    const withKey = await bundle(gatewayFor(FAKE_HYDAPI_KEY))
    expect(withKey.status).toBe(200)
    expect(withKey.json.fields.hydro_stations).toMatchObject({
      status: 'ok',
      source: 'nve',
      operation: 'find_hydro_stations',
    })
    expect(ids(withKey.json.fields.hydro_stations)).toEqual(['6.78.0', '8.2.0', '6.9.0'])
    // The only field asked for could not be fetched: the bundle says why, naming the variable.
    const without = await bundle(gatewayFor(undefined))
    expect(without.status).toBe(502)
    expect(without.json.error.details).toEqual([
      {
        parameter: 'hydro_stations',
        rule: 'not_configured',
        problem: 'Upstream NVE HydAPI (hydrological data) (nve_hydapi) needs an API key: set ALLMENNING_NVE_HYDAPI_KEY',
      },
    ])
  })
})
