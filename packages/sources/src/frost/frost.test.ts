import { inspect } from 'node:util'
import * as v from 'valibot'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, type Gateway } from '@allmenning/core'
import type { GatewayObserver } from '@allmenning/core/extension'
import type { FakeUpstream } from '@allmenning/core/testing'
import { createRequestBudget, type RequestBudget } from '../shared/request-budget.js'
import { createFindStations } from './find-stations.js'
import { frostAuthorization } from './frost-upstream.js'
import { frost } from './index.js'
import { FAKE_FROST_CLIENT_ID, frostError, startFakeFrost } from './testing/fake-frost.js'

let fake: FakeUpstream
beforeAll(async () => {
  fake = await startFakeFrost()
})
afterAll(() => fake.close())
afterEach(() => fake.failWith(undefined))

const roomy = () => createRequestBudget({ requests: 1000, perMs: 1000, maxWaitMs: 1000 })
const gatewayFor = (
  clientId: string | undefined,
  extra: {
    observers?: GatewayObserver[]
    onError?: (e: unknown) => void
    timeoutMs?: number
    budget?: RequestBudget
  } = {},
) =>
  createGateway({
    sources: [frost({ clientId, requestBudget: extra.budget ?? roomy() })],
    upstreams: { frost: { baseUrl: fake.baseUrl, timeoutMs: extra.timeoutMs ?? 2000 } },
    onError: extra.onError ?? (() => {}),
    ...(extra.observers ? { observers: extra.observers } : {}),
  })
const call = async (g: Gateway, operation: string, query: string) => {
  const res = await g.handle({ method: 'GET', path: `/api/v1/kilder/frost/${operation}`, query, headers: {} })
  return { status: res.status, body: res.body!, json: JSON.parse(res.body!) }
}
const since = (from: number) => fake.received.slice(from)
const ids = (json: { data: { id: string }[] }) => json.data.map((s) => s.id)
const OSLO_IDS = ['SN18700', 'SN18950', 'SN18210', 'SN18815', 'SN18500']

describe('find_stations', () => {
  it('reads the register once, with the client id as HTTP Basic user, and answers a bare list with the fields clients read', async () => {
    const g = gatewayFor(FAKE_FROST_CLIENT_ID)
    const from = fake.received.length
    const { status, json } = await call(g, 'find_stations', 'municipality=Oslo&limit=100')
    expect(status).toBe(200)
    expect(v.is(createFindStations(undefined, undefined, roomy()).output, json.data)).toBe(true)
    const asked = since(from)
    expect(asked.map((r) => `${r.path}?${r.query}`)).toEqual(['/sources/v0.jsonld?types=SensorSystem'])
    expect(asked[0]!.headers.authorization).toBe(frostAuthorization(FAKE_FROST_CLIENT_ID))
    expect(asked[0]!.headers.authorization).toBe(`Basic ${Buffer.from(`${FAKE_FROST_CLIENT_ID}:`).toString('base64')}`)
    // The closed station (SN18020, validTo in 2019) is left out; the one without a position is kept, without coordinates.
    expect(ids(json)).toEqual(OSLO_IDS)
    expect(json.data[0]).toEqual({
      id: 'SN18700',
      name: 'OSLO - BLINDERN',
      short_name: 'Blindern',
      lat: 59.9423,
      lon: 10.72,
      masl: 94,
      valid_from: '1931-01-01T00:00:00.000Z',
      county: 'OSLO',
      county_id: 3,
      municipality: 'OSLO',
      municipality_id: 301,
      wmo_id: 1492,
      station_holders: ['MET.NO'],
      distance_km: null,
    })
    expect(json.data.find((s: { id: string }) => s.id === 'SN18500')).toMatchObject({
      lat: null,
      lon: null,
      wmo_id: null,
    })
    expect(json._raw_values).toEqual({
      stations_in_frost_answer: 13,
      license: 'https://creativecommons.org/licenses/by/3.0/no/',
    })
    expect(json._provenance.upstreams[0]).toMatchObject({
      id: 'frost',
      publisher: 'MET Norway (Meteorologisk institutt)',
      license: expect.stringContaining('CC BY 3.0 NO'),
    })

    // Every other question is answered from the register in memory: no second call.
    for (const query of [
      'municipality=0301',
      'municipality=301',
      'municipality=oslo',
      'county=03',
      'county=3',
      'county=Oslo',
    ]) {
      const answer = await call(g, 'find_stations', query)
      expect([query, ids(answer.json)]).toEqual([query, OSLO_IDS])
    }
    expect(ids((await call(g, 'find_stations', 'county=32')).json)).toEqual(['SN17850', 'SN19710'])
    expect(ids((await call(g, 'find_stations', 'municipality=%C3%85s')).json)).toEqual(['SN17850'])
    expect(ids((await call(g, 'find_stations', 'municipality=as')).json)).toEqual(['SN17850'])
    expect(ids((await call(g, 'find_stations', 'municipality=9999')).json)).toEqual([])
    expect(since(from)).toHaveLength(1)
  })

  it('finds around a point, nearest first within radius_km, or the nearest at any distance', async () => {
    const g = gatewayFor(FAKE_FROST_CLIENT_ID)
    const { json } = await call(g, 'find_stations', 'lat=59.91&lon=10.75&radius_km=10')
    expect(ids(json)).toEqual(['SN18210', 'SN18815', 'SN18700', 'SN18950'])
    expect(json.data[0].distance_km).toBeCloseTo(3.14, 2)
    const nearest = await call(g, 'find_stations', 'lat=60.39&lon=5.32&limit=2')
    expect(ids(nearest.json)).toEqual(['SN50540', 'SN44560'])
    expect(ids((await call(g, 'find_stations', 'lat=59.91&lon=10.75&radius_km=30&county=32')).json)).toEqual([
      'SN19710',
      'SN17850',
    ])
  })

  it('finds by name or id; a name alone, before the register is read, is asked of Frost’s own name search', async () => {
    const g = gatewayFor(FAKE_FROST_CLIENT_ID)
    const from = fake.received.length
    const { json } = await call(g, 'find_stations', 'name=Blindern')
    expect(ids(json)).toEqual(['SN18700'])
    expect(since(from).map((r) => r.query.get('name'))).toEqual(['*Blindern*'])
    expect(json._provenance.data.source_api).toContain('name=*Blindern*')
    // Nothing matches: Frost's 404 "No data found" is an empty list.
    expect((await call(g, 'find_stations', 'name=Nowhere')).json.data).toEqual([])
    // Once the register is in memory, names, short names and ids are matched there.
    await call(g, 'find_stations', 'county=3')
    const before = fake.received.length
    expect(ids((await call(g, 'find_stations', 'name=tryvann')).json)).toEqual(['SN18950'])
    expect(ids((await call(g, 'find_stations', 'name=18700')).json)).toEqual(['SN18700'])
    expect(fake.received.length).toBe(before)
  })

  it.each([
    ['lat=59.91', 'lon', /lon is required together with lat and lon/],
    ['radius_km=5', 'radius_km', /radius_km needs lat and lon/],
    ['lat=59.91&lon=10.75&radius_km=0', 'radius_km', /greater than 0/],
    ['name=*', 'name', /name/],
    ['name=Blindern%2C*', 'name', /letters, digits/],
  ])('answers %s with a 400 naming %s', async (query, parameter, message) => {
    const { status, json } = await call(gatewayFor(FAKE_FROST_CLIENT_ID), 'find_stations', query)
    expect(status).toBe(400)
    expect(json.error.details[0].parameter).toBe(parameter)
    expect(json.error.message).toMatch(message)
  })
})

describe('get_latest_observations', () => {
  it('answers the latest value of each element with time, unit and level, in one observations call', async () => {
    const g = gatewayFor(FAKE_FROST_CLIENT_ID)
    const from = fake.received.length
    const { status, json } = await call(g, 'get_latest_observations', 'station_id=sn18700')
    expect(status).toBe(200)
    const observations = since(from).find((r) => r.path === '/observations/v0.jsonld')!
    expect(Object.fromEntries(observations.query)).toEqual({
      sources: 'SN18700',
      elements:
        'air_temperature,relative_humidity,wind_speed,wind_from_direction,sum(precipitation_amount PT1H),air_pressure_at_sea_level',
      referencetime: 'latest',
      maxage: 'P1D',
    })
    // The station itself, by id from the register, as the register was not in memory.
    expect(
      since(from)
        .find((r) => r.path === '/sources/v0.jsonld')!
        .query.get('ids'),
    ).toBe('SN18700')
    expect(json.data.station).toMatchObject({ id: 'SN18700', name: 'OSLO - BLINDERN', lat: 59.9423, lon: 10.72 })
    expect(json.data.observations.map((o: { element: string }) => o.element)).toEqual([
      'air_pressure_at_sea_level',
      'air_temperature',
      'relative_humidity',
      'sum(precipitation_amount PT1H)',
      'wind_from_direction',
      'wind_speed',
    ])
    const temperature = json.data.observations[1]
    expect(temperature).toMatchObject({
      station_id: 'SN18700',
      sensor: '0',
      element: 'air_temperature',
      value: 3.4,
      unit: 'degC',
      level: { type: 'height_above_ground', unit: 'm', value: 2 },
      time_resolution: 'PT1M',
      time_offset: 'PT0H',
      quality_code: 0,
    })
    // The fake moves its recorded times to the current hour.
    expect(Date.now() - Date.parse(temperature.time)).toBeLessThan(3_600_000)
    expect(json._raw_values).toEqual({ license: 'https://creativecommons.org/licenses/by/3.0/no/' })
  })

  it('asks for the elements named, and refuses ones that are not Frost element ids', async () => {
    const g = gatewayFor(FAKE_FROST_CLIENT_ID)
    const from = fake.received.length
    const { json } = await call(
      g,
      'get_latest_observations',
      `station_id=18950&elements=${encodeURIComponent('air_temperature, wind_speed')}`,
    )
    expect(json.data.observations.map((o: { element: string; value: number }) => [o.element, o.value])).toEqual([
      ['air_temperature', -0.8],
      ['wind_speed', 5.6],
    ])
    expect(
      since(from)
        .find((r) => r.path === '/observations/v0.jsonld')!
        .query.get('elements'),
    ).toBe('air_temperature,wind_speed')
    for (const elements of ['air_temperature;drop', ',,', 'sum(precipitation_amount PT1H']) {
      const bad = await call(
        g,
        'get_latest_observations',
        `station_id=SN18700&elements=${encodeURIComponent(elements)}`,
      )
      expect([elements, bad.status, bad.json.error.details[0].parameter]).toEqual([elements, 400, 'elements'])
    }
    const wrongId = await call(g, 'get_latest_observations', 'station_id=Blindern')
    expect([wrongId.status, wrongId.json.error.details[0].parameter]).toEqual([400, 'station_id'])
  })

  it('answers 404 for a station Frost does not have, and an empty list for one without recent values', async () => {
    const g = gatewayFor(FAKE_FROST_CLIENT_ID)
    const missing = await call(g, 'get_latest_observations', 'station_id=SN1')
    expect([missing.status, missing.json.error.code]).toEqual([404, 'entity_not_found'])
    const quiet = await call(g, 'get_latest_observations', 'station_id=SN19710')
    expect(quiet.status).toBe(200)
    expect(quiet.json.data).toMatchObject({ station: { id: 'SN19710' }, observations: [] })
  })
})

describe('find_stations_nearby', () => {
  it('answers the stations near the point with their latest air temperature, one call for the page', async () => {
    const g = gatewayFor(FAKE_FROST_CLIENT_ID)
    const from = fake.received.length
    const { status, json } = await call(g, 'find_stations_nearby', 'lat=59.91&lon=10.75&limit=3')
    expect(status).toBe(200)
    expect(ids(json)).toEqual(['SN18210', 'SN18815', 'SN18700'])
    expect(json.data[0].air_temperature).toEqual({ value: 3.9, unit: 'degC', time: expect.any(String) })
    expect(json._meta.pagination).toMatchObject({ returned: 3, has_more_results: true, total: 4 })
    const observations = since(from).filter((r) => r.path === '/observations/v0.jsonld')
    expect(observations.map((r) => [r.query.get('sources'), r.query.get('elements')])).toEqual([
      ['SN18210,SN18815,SN18700', 'air_temperature'],
    ])
  })

  it('answers a point without stations with an empty list, and no observations call', async () => {
    const g = gatewayFor(FAKE_FROST_CLIENT_ID)
    await call(g, 'find_stations_nearby', 'lat=59.91&lon=10.75')
    const from = fake.received.length
    const { json } = await call(g, 'find_stations_nearby', 'lat=0.5&lon=0.5&radius_km=5')
    expect(json.data).toEqual([])
    expect(since(from)).toEqual([])
  })
})

describe('frost and its client id', () => {
  it('answers 502 upstream_not_configured naming the variable, without calling Frost, when no id is given', async () => {
    const from = fake.received.length
    for (const clientId of [undefined, '   ']) {
      for (const [operation, query] of [
        ['find_stations', 'municipality=Oslo'],
        ['get_latest_observations', 'station_id=SN18700'],
        ['find_stations_nearby', 'lat=59.91&lon=10.75'],
      ]) {
        const { status, json } = await call(gatewayFor(clientId), operation!, query!)
        expect(status).toBe(502)
        expect(json.error).toMatchObject({ code: 'upstream_not_configured', upstream: 'frost' })
        expect(json.error.message).toBe(
          'Upstream MET Norway Frost (frost) needs a client id: set ALLMENNING_FROST_CLIENT_ID',
        )
      }
    }
    expect(since(from)).toEqual([])
  })

  it('says not_configured and the variable in discovery and the health check', async () => {
    const g = gatewayFor(undefined)
    const index = await g.handle({ method: 'GET', path: '/api/v1/kilder', query: '', headers: {} })
    expect(index.body).toContain('ALLMENNING_FROST_CLIENT_ID')
    const health = await g.handle({ method: 'GET', path: '/api/v1/health', query: '', headers: {} })
    expect(health.body).toContain('not_configured')
    expect(health.body).toContain('ALLMENNING_FROST_CLIENT_ID')
  })

  it('answers a refused id as a 502 naming Frost and the variable to check', async () => {
    const { status, json } = await call(gatewayFor('wrong-client-42'), 'find_stations', 'county=3')
    expect(status).toBe(502)
    expect(json.error).toMatchObject({ code: 'upstream_error', upstream: 'frost' })
    expect(json.error.message).toMatch(
      /refused the configured client id \(HTTP 401\); check ALLMENNING_FROST_CLIENT_ID/,
    )
  })

  it('never shows the id: not in an answer, a URL it names, an error, nor anything the gateway tells its observers', async () => {
    const heard: unknown[] = []
    const observer: GatewayObserver = {
      requestFinished: (e) => void heard.push(e),
      upstreamCallStarted: (e) => void heard.push(e),
      upstreamCallFinished: (e) => void heard.push(e),
      cacheLookup: (e) => void heard.push(e),
    }
    const errors: unknown[] = []
    const secret = 'S3cr3t-frost-id/with+chars=='
    const listen = { observers: [observer], onError: (e: unknown) => errors.push(e) }
    const wrong = await call(gatewayFor(secret, listen), 'find_stations', 'county=3')
    fake.failWith(
      {
        status: 500,
        headers: { 'content-type': 'text/html' },
        body: '<html><body>Internal Server Error</body></html>',
      },
      { times: 1 },
    )
    const failing = await call(
      gatewayFor(FAKE_FROST_CLIENT_ID, listen),
      'get_latest_observations',
      'station_id=SN18700',
    )
    const ok = await call(gatewayFor(FAKE_FROST_CLIENT_ID, listen), 'find_stations_nearby', 'lat=59.91&lon=10.75')
    expect([wrong.status, failing.status, ok.status]).toEqual([502, 502, 200])
    const everything = [
      wrong.body,
      failing.body,
      ok.body,
      inspect(heard, { depth: 10 }),
      inspect(errors, { depth: 10 }),
      ...errors.map((e) => (e as Error).stack ?? ''),
    ].join('\n')
    for (const id of [
      secret,
      encodeURIComponent(secret),
      FAKE_FROST_CLIENT_ID,
      frostAuthorization(secret).slice(6),
      frostAuthorization(FAKE_FROST_CLIENT_ID).slice(6),
    ]) {
      expect(everything).not.toContain(id)
    }
    expect(heard.length).toBeGreaterThan(0)
  })
})

describe('frost and its request budget', () => {
  it('refuses a call that would wait too long for its turn, as a 502 naming Frost, without calling it', async () => {
    const budget = createRequestBudget({ requests: 1, perMs: 60_000, maxWaitMs: 10 })
    const g = gatewayFor(FAKE_FROST_CLIENT_ID, { budget })
    expect((await call(g, 'get_latest_observations', 'station_id=SN18700&elements=air_temperature')).status).toBe(502)
    const from = fake.received.length
    const { status, json } = await call(g, 'find_stations', 'county=3')
    expect(status).toBe(502)
    expect(json.error).toMatchObject({ code: 'upstream_unavailable', upstream: 'frost' })
    expect(json.error.message).toMatch(/keeps to 1 requests per 60 s/)
    expect(since(from)).toEqual([])
  })
})

describe('when Frost fails', () => {
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
      'something that is not its envelope',
      { status: 200, headers: { 'content-type': 'application/json;charset=UTF-8' }, body: '{"data":"none"}' },
      'upstream_invalid_response',
      /station list/,
    ],
    [
      'a register without a station in use',
      {
        status: 200,
        headers: { 'content-type': 'application/json;charset=UTF-8' },
        body: '{"@type":"SourceResponse","data":[]}',
      },
      'upstream_invalid_response',
      /no station in use/,
    ],
    [
      'a 400 ErrorResponse',
      frostError(400, 'Bad Request', 'Invalid value for parameter types', 'https://frost.met.no/sources/v0.jsonld'),
      'upstream_error',
      /refused the request \(HTTP 400\): Invalid value for parameter types/,
    ],
    [
      'no answer in time (it hangs)',
      { status: 200, delayMs: 2000, body: '{}' },
      'upstream_timeout',
      /did not answer within 300 ms/,
    ],
  ])('answers %s with a 502 naming Frost', async (_name, reply, code, message) => {
    fake.failWith(reply)
    const { status, json } = await call(
      gatewayFor(FAKE_FROST_CLIENT_ID, { timeoutMs: 300 }),
      'find_stations',
      'county=3',
    )
    expect(status).toBe(502)
    expect(json.error).toMatchObject({ code, upstream: 'frost' })
    expect(json.error.message).toMatch(message)
  })

  it('leaves out an observation item it cannot read as a 502, not a crash', async () => {
    fake.failWith({
      status: 200,
      headers: { 'content-type': 'application/json;charset=UTF-8' },
      body: '{"@type":"ObservationResponse","data":[{"sourceId":7}]}',
    })
    const { status, json } = await call(gatewayFor(FAKE_FROST_CLIENT_ID), 'find_stations_nearby', 'lat=59.91&lon=10.75')
    expect(status).toBe(502)
    expect(json.error.code).toBe('upstream_invalid_response')
  })
})

describe('the entity search of frost', () => {
  const search = async (g: Gateway, q: string) => {
    const res = await g.handle({
      method: 'GET',
      path: '/api/v1/sok/alle',
      query: `q=${encodeURIComponent(q)}&mode=entities&sources=frost&limit=10`,
      headers: {},
    })
    return JSON.parse(res.body!)
  }

  it('finds weather stations by name with their place, through Frost’s name search before the register is read, from memory after', async () => {
    const g = gatewayFor(FAKE_FROST_CLIENT_ID)
    const from = fake.received.length
    const first = JSON.stringify(await search(g, 'Blindern'))
    expect(first).toContain('SN18700')
    expect(since(from).map((r) => r.query.get('name'))).toEqual(['*Blindern*'])
    // With its place, so the place search lists it.
    const places = await g.handle({ method: 'GET', path: '/api/v1/steder/sok', query: 'q=Blindern', headers: {} })
    expect(places.body).toContain('59.9423')
    await call(g, 'find_stations', 'county=3')
    const before = fake.received.length
    const second = JSON.stringify(await search(g, 'tryvann'))
    expect(second).toContain('SN18950')
    expect(second).toContain('get_latest_observations')
    expect(fake.received.length).toBe(before)
  })
})
