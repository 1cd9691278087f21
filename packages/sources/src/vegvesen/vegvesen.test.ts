import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type FakeUpstream } from '@allmenning/core/testing'
import { builtInSources } from '../built-in-sources.js'
import { entur } from '../entur/index.js'
import { startFakeEnturGeocoder, startFakeEnturJourneyPlanner, startFakeEnturMobility } from '../entur/testing/index.js'
import { vegvesen } from './index.js'
import { REGISTRATION_POINTS_QUERY } from './registration-points.js'
import { FAKE_DATEX_PASSWORD, FAKE_DATEX_USERNAME, startFakeDatex } from './testing/fake-datex.js'
import {
  GAPPY_POINT_ID,
  startFakeTrafikkdata,
  trafikkdataError,
  type FakeTrafikkdata,
} from './testing/fake-trafikkdata.js'

let trafikkdata: FakeTrafikkdata

beforeAll(async () => {
  trafikkdata = await startFakeTrafikkdata()
})
afterAll(() => trafikkdata.close())

const gatewayFor = () =>
  createTestGateway({
    sources: vegvesen(),
    upstreams: { vegvesen_trafikkdata: trafikkdata },
    upstream: { timeoutMs: 1000, breakAfterFailures: 0 },
  })

const ids = (rows: { id: string }[]) => rows.map((r) => r.id)

describe('registration points', () => {
  it('fetches the list once, with the documented filter, and finds the points near a point, nearest first', async () => {
    const gateway = gatewayFor()
    const before = trafikkdata.questions.length
    const near = await gateway.call('vegvesen', 'find_registration_points_nearby', {
      lat: 59.9071,
      lon: 10.7493,
      radius_km: 5,
    })
    expect(near.status).toBe(200)
    expect(near.json.data.map((p: { id: string; distance_km: number }) => [p.id, p.distance_km])).toEqual([
      ['10234B1110003', 0.079],
      ['10234V1110002', 0.338],
      ['10234V1110001', 0.382],
      ['10240V1120004', 3.326],
      ['10240V1120005', 4.6],
    ])
    expect(near.json.data[2]).toEqual({
      id: '10234V1110001',
      name: 'Kaiparken nord',
      traffic_type: 'VEHICLE',
      road: 'EV18',
      road_reference: 'EV18 S1D1 m2100',
      county: 'Oslo',
      county_number: 3,
      municipality: 'Oslo',
      municipality_number: 301,
      lat: 59.9102,
      lon: 10.7515,
      operational_status: 'OPERATIONAL',
      registration_frequency: 'CONTINUOUS',
      first_data: '2014-03-01T00:00:00+01:00',
      latest_hour: '2026-11-25T06:00:00+01:00',
      distance_km: 0.382,
    })
    const vehicles = await gateway.call('vegvesen', 'find_registration_points_nearby', {
      lat: 59.9071,
      lon: 10.7493,
      radius_km: 1,
      traffic_type: 'VEHICLE',
    })
    expect(ids(vehicles.json.data)).toEqual(['10234V1110002', '10234V1110001'])
    // One question for the whole list, answered from memory after that.
    expect(trafikkdata.questions.slice(before)).toEqual([{ query: REGISTRATION_POINTS_QUERY, variables: {} }])
    expect(REGISTRATION_POINTS_QUERY).toMatch(
      /trafficRegistrationPoints\(searchQuery: \{ roadCategoryIds: \[E, R, F, K, P\] \}\)/,
    )
    expect(vehicles.json._provenance.upstreams).toEqual([
      expect.objectContaining({
        id: 'vegvesen_trafikkdata',
        license: 'NLOD 2.0',
        publisher: expect.stringMatching(/Norwegian Public Roads Administration/),
      }),
    ])
    expect(gateway.errors).toEqual([])
  })

  it('finds the points on a road however the road is written, in road-reference order, optionally in one county', async () => {
    const gateway = gatewayFor()
    for (const road of ['FV44', 'fv 44', 'F44', 'Fv44']) {
      const { status, json } = await gateway.call('vegvesen', 'find_registration_points_by_road', { road })
      expect(status, road).toBe(200)
      expect(ids(json.data)).toEqual(['46210V2220006', '46210V2220008', '46210V2220007'])
      expect(json.parameters.road).toBe('FV44')
    }
    expect(
      ids(
        (await gateway.call('vegvesen', 'find_registration_points_by_road', { road: 'E18', county_number: 3 })).json
          .data,
      ),
    ).toEqual(['10234V1110002', '10234V1110001', '10240V1120005'])
    expect(
      (await gateway.call('vegvesen', 'find_registration_points_by_road', { road: 'E18', county_number: 46 })).json
        .data,
    ).toEqual([])
  })

  it('refuses a road it cannot read with a 400 naming road and the rule', async () => {
    const { status, json } = await gatewayFor().call('vegvesen', 'find_registration_points_by_road', {
      road: 'Ringveien',
    })
    expect(status).toBe(400)
    expect(json.error.details[0]).toMatchObject({
      parameter: 'road',
      problem: expect.stringMatching(/e\.g\. E6, RV4, FV44/),
    })
  })

  it('finds points by name or id, and leaves none out for want of coordinates', async () => {
    const gateway = gatewayFor()
    expect(ids((await gateway.call('vegvesen', 'search_registration_points', { query: 'granlia' })).json.data)).toEqual(
      ['46210V2220006', '46210V2220007', '46210V2220008'],
    )
    expect(
      (await gateway.call('vegvesen', 'search_registration_points', { query: 'Ukjent' })).json.data[0],
    ).toMatchObject({ id: '50100V3330009', lat: null, lon: null, road: null })
    expect(
      ids((await gateway.call('vegvesen', 'search_registration_points', { query: '15020V4440010' })).json.data),
    ).toEqual(['15020V4440010'])
  })

  it('is a 502 naming Vegvesen when the list comes back as GraphQL errors in a 200, or empty', async () => {
    const gateway = gatewayFor()
    trafikkdata.failWith(trafikkdataError('Internal server error'), { times: 1 })
    const failed = await gateway.call('vegvesen', 'search_registration_points', { query: 'Granlia' })
    expect(failed.status).toBe(502)
    expect(failed.json.error.message).toBe(
      'Upstream Statens vegvesen trafikkdata (vegvesen_trafikkdata) answered GraphQL errors in an HTTP 200 answer: Internal server error',
    )
    const empty = gatewayFor()
    trafikkdata.failWith(
      {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: '{"data":{"trafficRegistrationPoints":[]}}',
      },
      { times: 1 },
    )
    const none = await empty.call('vegvesen', 'search_registration_points', { query: 'Granlia' })
    expect(none.status).toBe(502)
    expect(none.json.error.code).toBe('upstream_invalid_response')
    const odd = gatewayFor()
    trafikkdata.failWith(
      {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: '{"data":{"trafficRegistrationPoints":[{"id":"1V1","name":"A"},{"id":2,"name":"B"}]}}',
      },
      { times: 1 },
    )
    const broken = await odd.call('vegvesen', 'search_registration_points', { query: 'Granlia' })
    expect(broken.status).toBe(502)
    expect(broken.json.error.message).toMatch(
      /vegvesen_trafikkdata\) answered registration point 1 of the list in an unexpected shape \(at id\)/,
    )
  })
})

describe('configuration from the environment', () => {
  it('reaches trafikkdata where ALLMENNING_UPSTREAM_VEGVESEN_TRAFIKKDATA points', async () => {
    const sources = builtInSources({ ALLMENNING_UPSTREAM_VEGVESEN_TRAFIKKDATA: trafikkdata.baseUrl })
    const gateway = createTestGateway({ sources: sources.filter((source) => source.id === 'vegvesen') })
    const { status, json } = await gateway.call('vegvesen', 'find_registration_points_by_road', { road: 'E136' })
    expect([status, ids(json.data)]).toEqual([200, ['15020V4440010']])
  })
})

describe('get_traffic_volume', () => {
  it('asks for the hours of the period in Oslo time and answers one row per hour, a gap as null with its coverage', async () => {
    const gateway = gatewayFor()
    const { status, json, headers } = await gateway.call('vegvesen', 'get_traffic_volume', {
      registration_point_id: GAPPY_POINT_ID,
      from: '2026-11-24',
      to: '2026-11-25',
    })
    expect(status).toBe(200)
    // Volumes arrive hour by hour: a quarter of an hour.
    expect(headers['cache-control']).toMatch(/max-age=900\b/)
    const asked = trafikkdata.questions[trafikkdata.questions.length - 1]!
    expect(asked.variables).toEqual({
      id: GAPPY_POINT_ID,
      from: '2026-11-24T00:00:00+01:00',
      to: '2026-11-25T00:00:00+01:00',
      after: null,
    })
    expect(asked.query).toMatch(/byHour\(from: \$from, to: \$to, first: 100, after: \$after\)/)
    expect(json.data).toMatchObject({
      registration_point_id: GAPPY_POINT_ID,
      name: 'Kaiparken sør',
      resolution: 'hour',
      from: '2026-11-24T00:00:00+01:00',
      to: '2026-11-25T00:00:00+01:00',
    })
    expect(json.data.volumes).toHaveLength(24)
    expect(json.data.volumes[0]).toEqual({
      from: '2026-11-24T00:00:00+01:00',
      to: '2026-11-24T01:00:00+01:00',
      volume: expect.any(Number),
      coverage_percent: 100,
    })
    expect(json.data.volumes[3]).toEqual({
      from: '2026-11-24T03:00:00+01:00',
      to: '2026-11-24T04:00:00+01:00',
      volume: null,
      coverage_percent: 0,
    })
    expect(json.entities).toEqual([expect.objectContaining({ type: 'traffic_registration_point', id: GAPPY_POINT_ID })])
    expect(gateway.errors).toEqual([])
  })

  it('reads every page: a week of hours in two, a year of days in four', async () => {
    const gateway = gatewayFor()
    const week = await gateway.call('vegvesen', 'get_traffic_volume', {
      registration_point_id: '10234V1110001',
      from: '2026-11-18',
      to: '2026-11-25',
    })
    expect(week.status).toBe(200)
    expect(week.json.data.volumes).toHaveLength(168)
    const pages = trafikkdata.questions.slice(-2).map((q) => q.variables.after)
    expect(pages).toEqual([null, Buffer.from('99').toString('base64')])
    const before = trafikkdata.questions.length
    const year = await gateway.call('vegvesen', 'get_traffic_volume', {
      registration_point_id: '10234V1110001',
      resolution: 'day',
      from: '2025-11-25',
      to: '2026-11-25',
      limit: 366,
    })
    expect(year.status).toBe(200)
    expect(year.json.data.volumes).toHaveLength(365)
    expect(trafikkdata.questions.length - before).toBe(4)
    // Days stay at midnight across the clock change.
    expect(year.json.data.volumes.every((row: { from: string }) => /T00:00:00\+0[12]:00$/.test(row.from))).toBe(true)
  })

  it('refuses a period longer than the resolution allows with a 400 naming to and the rule, without asking Vegvesen', async () => {
    const gateway = gatewayFor()
    const before = trafikkdata.questions.length
    const { status, json } = await gateway.call('vegvesen', 'get_traffic_volume', {
      registration_point_id: '10234V1110001',
      from: '2026-11-01',
      to: '2026-11-09',
    })
    expect(status).toBe(400)
    expect(json.error).toMatchObject({
      code: 'invalid_parameter',
      message:
        'Invalid parameter: to makes a period of 8 days; the period is at most 7 days (168 hours) with resolution=hour',
    })
    expect(json.error.details).toEqual([
      {
        parameter: 'to',
        problem: 'makes a period of 8 days; the period is at most 7 days (168 hours) with resolution=hour',
        rule: 'max_period',
      },
    ])
    const days = await gateway.call('vegvesen', 'get_traffic_volume', {
      registration_point_id: '10234V1110001',
      resolution: 'day',
      from: '2024-01-01',
      to: '2026-01-01',
    })
    expect(days.json.error.details[0]).toMatchObject({ parameter: 'to', rule: 'max_period' })
    const malformed = await gateway.call('vegvesen', 'get_traffic_volume', {
      registration_point_id: '10234V1110001',
      from: '24.11.2026',
    })
    expect(malformed.json.error.details[0]).toMatchObject({ parameter: 'from' })
    const badId = await gateway.call('vegvesen', 'get_traffic_volume', { registration_point_id: 'Kaiparken' })
    expect(badId.json.error.details[0]).toMatchObject({ parameter: 'registration_point_id' })
    expect(trafikkdata.questions.length).toBe(before)
  })

  it('answers the volumes of a bicycle counter too, whose id has another letter', async () => {
    const { status, json } = await gatewayFor().call('vegvesen', 'get_traffic_volume', {
      registration_point_id: '10234B1110003',
      resolution: 'day',
      from: '2026-11-01',
      to: '2026-11-08',
    })
    expect(status).toBe(200)
    expect(json.data).toMatchObject({ name: 'Kaiparken sykkel', resolution: 'day' })
    expect(json.data.volumes.map((row: { from: string }) => row.from.slice(0, 10))).toEqual([
      '2026-11-01',
      '2026-11-02',
      '2026-11-03',
      '2026-11-04',
      '2026-11-05',
      '2026-11-06',
      '2026-11-07',
    ])
  })

  it('is a 404 for an id Vegvesen does not list', async () => {
    const { status, json } = await gatewayFor().call('vegvesen', 'get_traffic_volume', {
      registration_point_id: '99999V9999999',
    })
    expect(status).toBe(404)
    expect(json.error).toMatchObject({
      code: 'entity_not_found',
      message: 'Statens vegvesen lists no registration point 99999V9999999',
    })
  })

  it('is a 502 naming Vegvesen when the volumes come back as GraphQL errors in a 200', async () => {
    const gateway = gatewayFor()
    await gateway.call('vegvesen', 'search_registration_points', { query: 'Granlia' })
    trafikkdata.failWith(trafikkdataError("Variable 'from' has an invalid value", ['trafficData']), { times: 1 })
    const { status, json } = await gateway.call('vegvesen', 'get_traffic_volume', {
      registration_point_id: '46210V2220006',
      from: '2026-11-20',
      to: '2026-11-21',
    })
    expect(status).toBe(502)
    expect(json.error).toMatchObject({
      code: 'upstream_error',
      message: expect.stringMatching(
        /^Upstream Statens vegvesen trafikkdata \(vegvesen_trafikkdata\) answered GraphQL errors/,
      ),
    })
    expect(gateway.errors).toEqual([])
  })
})

describe('entity search and places', () => {
  it('finds registration points by name and by id, linked to their volumes', async () => {
    const gateway = gatewayFor()
    const byName = await gateway.get('/api/v1/sok/alle', { q: 'Granlia vest', mode: 'entities' })
    expect(byName.json.results[0]).toMatchObject({
      type: 'traffic_registration_point',
      id: '46210V2220006',
      source: 'vegvesen',
      _links: { api: '/api/v1/kilder/vegvesen/get_traffic_volume?registration_point_id=46210V2220006' },
    })
    const byId = await gateway.get('/api/v1/sok/alle', { q: '15020V4440010' })
    expect(byId.json.results[0]).toMatchObject({
      type: 'traffic_registration_point',
      id: '15020V4440010',
      name: 'Storengen bru',
    })
  })

  describe('the transport section of /api/v1/steder, with entur', () => {
    let journeyPlanner: FakeUpstream
    let geocoder: FakeUpstream
    let mobility: FakeUpstream
    beforeAll(async () => {
      ;[journeyPlanner, geocoder, mobility] = await Promise.all([
        startFakeEnturJourneyPlanner(),
        startFakeEnturGeocoder(),
        startFakeEnturMobility(),
      ])
    })
    afterAll(() => Promise.all([journeyPlanner.close(), geocoder.close(), mobility.close()]))

    it('holds the stops, the traffic registration points and the traffic messages near the point', async () => {
      const datex = await startFakeDatex()
      const gateway = createTestGateway({
        sources: [entur(), vegvesen({ datexUsername: FAKE_DATEX_USERNAME, datexPassword: FAKE_DATEX_PASSWORD })],
        upstreams: {
          vegvesen_trafikkdata: trafikkdata,
          vegvesen_datex: datex,
          entur_journey_planner: journeyPlanner,
          entur_geocoder: geocoder,
          entur_mobility: mobility,
        },
      })
      const { status, json } = await gateway.get('/api/v1/steder/59.9071/10.7493', { section: 'transport' })
      await datex.close()
      expect(status).toBe(200)
      expect(Object.keys(json.fields)).toEqual([
        'stops',
        'traffic_registration_points',
        'shared_mobility',
        'traffic_messages',
      ])
      expect(json.fields.traffic_messages).toMatchObject({
        status: 'ok',
        source: 'vegvesen',
        operation: 'get_traffic_messages',
      })
      expect(json.fields.traffic_registration_points).toMatchObject({
        status: 'ok',
        source: 'vegvesen',
        operation: 'find_registration_points_nearby',
      })
      expect(ids(json.fields.traffic_registration_points.data)).toEqual([
        '10234B1110003',
        '10234V1110002',
        '10234V1110001',
        '10240V1120004',
        '10240V1120005',
      ])
      expect(json.fields.stops).toMatchObject({ status: 'ok', source: 'entur' })
      expect(gateway.errors).toEqual([])
    })
  })
})
