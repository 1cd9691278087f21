import { readFileSync } from 'node:fs'
import * as v from 'valibot'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createGateway, type Gateway } from '@allmenning/core'
import { startFakeUpstream } from '@allmenning/core/testing'
import { forecastOutput } from './forecast-mapping.js'
import { nearbyStation } from './get-air-quality-nearby.js'
import { luftkvalitet } from './index.js'
import { AIR_LAST_MODIFIED, startFakeMetAirquality, type FakeMetAirquality } from './testing/fake-met-airquality.js'

const USER_AGENT = 'allmenning-test/1.0 ops@example.no'
let met: FakeMetAirquality

const gatewayFor = (baseUrl = met.baseUrl, timeoutMs = 1000) =>
  createGateway({
    sources: [luftkvalitet()],
    upstreams: { met_airquality: { baseUrl, timeoutMs } },
    upstream: { userAgent: USER_AGENT },
    onError: () => {},
  })

const call = async (gateway: Gateway, operation: string, query: string) => {
  const res = await gateway.handle({
    method: 'GET',
    path: `/api/v1/kilder/luftkvalitet/${operation}`,
    query,
    headers: {},
  })
  return { status: res.status, json: JSON.parse(res.body!) }
}

const currentHour = () => new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString().replace('.000Z', 'Z')

beforeAll(async () => {
  met = await startFakeMetAirquality()
})
afterAll(() => met.close())
beforeEach(() => {
  met.calls.length = 0
  met.expiresInSeconds = 3600
})

describe('get_air_quality_nearby', () => {
  it('answers a bare list of stations, nearest first, with their distance', async () => {
    const { status, json } = await call(gatewayFor(), 'get_air_quality_nearby', 'lat=59.9139&lon=10.7522&limit=5')
    expect(status).toBe(200)
    expect(json.parameters).toEqual({ lat: 59.914, lon: 10.752, limit: 5, offset: 0 })
    expect(v.is(v.array(nearbyStation), json.data)).toBe(true)
    expect(json.data.map((s: { name: string; distance_km: number }) => [s.name, s.distance_km])).toEqual([
      ['Bygdøy Alle', 2.34],
      ['Kirkeveien', 2.54],
      ['Hjortnes', 2.69],
      ['Alnabru', 5.47],
      ['Danmarks plass', 303.74],
    ])
    expect(json.data[0]).toEqual({
      station_id: 'NO0089A',
      name: 'Bygdøy Alle',
      municipality: 'Oslo',
      municipality_number: '0301',
      area: 'Frogner',
      lat: 59.918889,
      lon: 10.711111,
      height_m: 21,
      distance_km: 2.34,
      station: 'Bygdøy Alle',
      eoi: 'NO0089A',
      latitude: 59.918889,
      longitude: 10.711111,
      aqi_level: null,
      aqi_time: null,
    })
    expect(json._meta.pagination).toEqual({
      limit: 5,
      offset: 0,
      returned: 5,
      has_more_results: true,
      next_offset: 5,
      total: 7,
    })
    expect(json.entities[0]).toEqual({
      type: 'air_quality_station',
      id: 'NO0089A',
      name: 'Bygdøy Alle',
      source: 'luftkvalitet',
      _links: { self: '/api/v1/kilder/luftkvalitet/get_station_forecast?station_id=NO0089A' },
    })
    expect(json._provenance.upstreams).toEqual([
      expect.objectContaining({
        id: 'met_airquality',
        publisher: 'MET Norway (Norwegian Meteorological Institute)',
        license: 'NLOD 2.0 / CC BY 4.0',
      }),
    ])
    expect(met.calls).toEqual([
      {
        path: '/weatherapi/airqualityforecast/0.1/stations',
        query: '',
        userAgent: USER_AGENT,
        ifModifiedSince: undefined,
      },
    ])
  })

  it('takes the request the public gateway’s clients send (decimal comma included) and reads as they do', async () => {
    const { status, json } = await call(gatewayFor(), 'get_air_quality_nearby', 'lat=63,4305&lon=10,3951&limit=1')
    expect(status).toBe(200)
    expect(Array.isArray(json.data)).toBe(true)
    expect(json.data[0]).toMatchObject({ name: 'Elgeseter', distance_km: expect.any(Number) })
    // NILU's field names, which those clients read, stand beside the source's own.
    expect(json.data[0]).toMatchObject({
      station: 'Elgeseter',
      eoi: json.data[0].station_id,
      latitude: json.data[0].lat,
      longitude: json.data[0].lon,
    })
    expect(json._meta.retrieved_at).toEqual(expect.any(String))
  })

  it('fetches the station list once and filters it locally for every point', async () => {
    const gateway = gatewayFor()
    await call(gateway, 'get_air_quality_nearby', 'lat=59.9&lon=10.7')
    await call(gateway, 'get_air_quality_nearby', 'lat=60.39&lon=5.32')
    await call(gateway, 'get_air_quality_nearby', 'lat=69.65&lon=18.96')
    expect(met.calls).toHaveLength(1)
  })

  it('keeps to radius_km when given', async () => {
    const { json } = await call(gatewayFor(), 'get_air_quality_nearby', 'lat=59.914&lon=10.752&radius_km=2.6')
    expect(json.data.map((s: { station_id: string }) => s.station_id)).toEqual(['NO0089A', 'NO0083A'])
    const none = await call(gatewayFor(), 'get_air_quality_nearby', 'lat=78.22&lon=15.65&radius_km=50')
    expect(none.status).toBe(200)
    expect(none.json.data).toEqual([])
  })

  it('revalidates an expired station list with If-Modified-Since', async () => {
    met.expiresInSeconds = -60
    const gateway = gatewayFor()
    await call(gateway, 'get_air_quality_nearby', 'lat=59.9&lon=10.7')
    const again = await call(gateway, 'get_air_quality_nearby', 'lat=59.8&lon=10.7')
    expect(again.status).toBe(200)
    expect(again.json.data).toHaveLength(7)
    expect(met.calls.map((c) => c.ifModifiedSince)).toEqual([undefined, AIR_LAST_MODIFIED])
  })

  describe('an empty station list', () => {
    const recorded = readFileSync(new URL('./testing/fixtures/stations.json', import.meta.url), 'utf8')
    /** A /stations that answers `bodies` in turn (the last one for ever), each already expired and newly modified. */
    async function stationsInTurn(bodies: string[]) {
      let served = 0
      return startFakeUpstream({
        '/stations': () => {
          const body = bodies[Math.min(served, bodies.length - 1)]!
          served++
          return {
            status: 200,
            headers: {
              'content-type': 'application/json',
              expires: new Date(Date.now() - 60_000).toUTCString(),
              'last-modified': new Date(Date.UTC(2026, 1, served)).toUTCString(),
            },
            body,
          }
        },
      })
    }

    it('is a 502 naming MET, not an empty answer, and the next call asks again', async () => {
      const fake = await stationsInTurn(['[]', recorded])
      try {
        const gateway = gatewayFor(fake.baseUrl)
        const first = await call(gateway, 'get_air_quality_nearby', 'lat=59.9&lon=10.7')
        expect(first.status).toBe(502)
        expect(first.json.error).toMatchObject({ code: 'upstream_invalid_response', upstream: 'met_airquality' })
        expect(first.json.error.message).toMatch(
          /^Upstream MET Norway Air Quality Forecast \(met_airquality\) sent an implausible station list \(0 items/,
        )
        const second = await call(gateway, 'get_air_quality_nearby', 'lat=59.9&lon=10.7')
        expect(second.status).toBe(200)
        expect(second.json.data).toHaveLength(7)
      } finally {
        await fake.close()
      }
    })

    it('does not replace the last good list', async () => {
      const fake = await stationsInTurn([recorded, '[]'])
      try {
        const gateway = gatewayFor(fake.baseUrl)
        expect((await call(gateway, 'get_air_quality_nearby', 'lat=59.9&lon=10.7')).json.data).toHaveLength(7)
        const after = await call(gateway, 'get_air_quality_nearby', 'lat=59.8&lon=10.7')
        expect(after.status).toBe(200)
        expect(after.json.data).toHaveLength(7)
        expect(fake.requests).toHaveLength(2)
      } finally {
        await fake.close()
      }
    })
  })

  it('reads coordinates sent as numbers, and leaves out a station without a position', async () => {
    const quirky = await startFakeUpstream({
      '/stations': () => ({
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify([
          {
            name: 'Numeric',
            eoi: 'NO0001A',
            height: null,
            latitude: 59.91,
            longitude: 10.75,
            kommune: { areacode: '0301', name: 'Oslo' },
          },
          {
            name: 'Nowhere',
            eoi: 'NO0002A',
            height: 3,
            latitude: '',
            longitude: '',
            kommune: null,
            delomrade: null,
            grunnkrets: null,
          },
        ]),
      }),
    })
    try {
      const { status, json } = await call(gatewayFor(quirky.baseUrl), 'get_air_quality_nearby', 'lat=59.91&lon=10.75')
      expect(status).toBe(200)
      expect(json.data).toEqual([
        {
          station_id: 'NO0001A',
          name: 'Numeric',
          municipality: 'Oslo',
          municipality_number: '0301',
          area: null,
          lat: 59.91,
          lon: 10.75,
          height_m: null,
          distance_km: 0,
          station: 'Numeric',
          eoi: 'NO0001A',
          latitude: 59.91,
          longitude: 10.75,
          aqi_level: null,
          aqi_time: null,
        },
      ])
    } finally {
      await quirky.close()
    }
  })

  it('rejects coordinates out of bounds with a 400 naming the bound', async () => {
    const { status, json } = await call(gatewayFor(), 'get_air_quality_nearby', 'lat=-91&lon=200')
    expect(status).toBe(400)
    expect(json.error.details).toEqual([
      { parameter: 'lat', problem: 'must be at least -90', rule: 'min_value' },
      { parameter: 'lon', problem: 'must be at most 180', rule: 'max_value' },
    ])
  })
})

describe('get_air_quality_forecast', () => {
  it('answers the grunnkrets of the point hour by hour, with index, band and dominant pollutant', async () => {
    const { status, json } = await call(gatewayFor(), 'get_air_quality_forecast', 'lat=59.91386&lon=10.75224')
    expect(status).toBe(200)
    const { has_more_results: hasMore, ...data } = json.data
    expect(hasMore).toBe(false)
    expect(v.is(forecastOutput, data)).toBe(true)
    expect(json.data.location).toEqual({
      name: 'Rådhuset',
      code: '03010101',
      class: 'grunnkrets',
      lat: 59.91386,
      lon: 10.75224,
    })
    expect(json.data.parent_area).toMatchObject({ name: 'Sentrum', code: '0301001', class: 'delomrade' })
    expect(json.data.times).toHaveLength(6)
    expect(json.data.times[0]).toEqual({
      from: currentHour(),
      to: expect.any(String),
      aqi: 1.63,
      level: 'low',
      dominant_pollutant: 'no2',
      aqi_pm10: 1.2,
      aqi_pm25: 1.41,
      aqi_no2: 1.63,
      aqi_o3: 1.05,
      pm10_ug_m3: 18.2,
      pm25_ug_m3: 8.9,
      no2_ug_m3: 46.8,
      o3_ug_m3: 38.2,
    })
    expect(json.data.times[2]).toMatchObject({ aqi: 2.41, level: 'moderate', dominant_pollutant: 'no2' })
    expect(json.data.times[5]).toMatchObject({ aqi: 1.71, dominant_pollutant: 'o3' })
    // The public gateway's clients read the index as one series, and the band of the current hour.
    expect(json.data.components).toHaveLength(1)
    expect(json.data.components[0].component).toBe('AQI')
    expect(json.data.components[0].values).toEqual(
      json.data.times.map((t: { from: string; aqi: number }) => ({ time: t.from, value: t.aqi })),
    )
    expect(json.data.now_level).toBe('low')
    expect(met.calls[0]).toMatchObject({
      path: '/weatherapi/airqualityforecast/0.1/',
      query: '?lat=59.914&lon=10.752&areaclass=grunnkrets',
      userAgent: USER_AGENT,
    })
  })

  it('answers an empty forecast outside Norway, where MET has none', async () => {
    const { status, json } = await call(gatewayFor(), 'get_air_quality_forecast', 'lat=48.8566&lon=2.3522')
    expect(status).toBe(200)
    expect(json.data).toEqual({
      location: null,
      parent_area: null,
      reftime: null,
      times: [],
      components: [],
      now_level: null,
      has_more_results: false,
    })
  })

  it('pages the hours', async () => {
    const { json } = await call(gatewayFor(), 'get_air_quality_forecast', 'lat=59.914&lon=10.752&limit=2&offset=2')
    expect(json.data.times.map((t: { aqi: number }) => t.aqi)).toEqual([2.41, 2.12])
    expect(json.data.components[0].values.map((hour: { value: number }) => hour.value)).toEqual([2.41, 2.12])
    expect(json.data.has_more_results).toBe(true)
  })
})

describe('get_station_forecast', () => {
  it('answers the forecast at a station in MET’s list, its code in any case', async () => {
    const { status, json } = await call(gatewayFor(), 'get_station_forecast', 'station_id=no0057a')
    expect(status).toBe(200)
    expect(json.parameters.station_id).toBe('NO0057A')
    expect(json.data.location.class).toBe('station')
    expect(json.data.times).toHaveLength(6)
  })

  it('is a 404 for a station not in the list, without asking for its forecast', async () => {
    const { status, json } = await call(gatewayFor(), 'get_station_forecast', 'station_id=NO9999A')
    expect(status).toBe(404)
    expect(json.error).toMatchObject({
      code: 'entity_not_found',
      message: "No air-quality station NO9999A in MET's station list",
    })
    expect(met.calls.map((c) => c.path)).toEqual(['/weatherapi/airqualityforecast/0.1/stations'])
  })

  it('is a 400 for something that is not a station code', async () => {
    const { status, json } = await call(gatewayFor(), 'get_station_forecast', 'station_id=Kirkeveien')
    expect(status).toBe(400)
    expect(json.error.details[0]).toMatchObject({ parameter: 'station_id', rule: 'regex' })
  })
})

describe('MET failures', () => {
  it.each([
    ['a 500', { status: 500, body: 'Internal Server Error' }, 'upstream_error', /answered HTTP 500/],
    [
      'an HTML page',
      {
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: '<html><head><title>502 Bad Gateway</title></head></html>',
      },
      'upstream_invalid_response',
      /not valid JSON/,
    ],
    [
      'JSON of another shape',
      { status: 200, headers: { 'content-type': 'application/json' }, body: '{"stations":[]}' },
      'upstream_invalid_response',
      /station list in an unexpected shape/,
    ],
    [
      'no answer in time',
      { status: 200, delayMs: 1500, body: '[]' },
      'upstream_timeout',
      /did not answer within 300 ms/,
    ],
  ])('answers %s with a 502 naming MET', async (_name, reply, code, message) => {
    const broken = await startFakeUpstream({ '/stations': () => reply, '/': () => reply })
    try {
      const gateway = gatewayFor(broken.baseUrl, 300)
      for (const [operation, query] of [
        ['get_air_quality_nearby', 'lat=59.9&lon=10.7'],
        ['get_air_quality_forecast', 'lat=59.9&lon=10.7'],
      ] as const) {
        const { status, json } = await call(gateway, operation, query)
        expect(status).toBe(502)
        expect(json.error).toMatchObject({ status: 502, upstream: 'met_airquality' })
        expect(json.error.message).toMatch(/^Upstream MET Norway Air Quality Forecast \(met_airquality\) /)
        if (operation === 'get_air_quality_nearby') {
          expect(json.error.code).toBe(code)
          expect(json.error.message).toMatch(message)
        }
      }
    } finally {
      await broken.close()
    }
  })
})
