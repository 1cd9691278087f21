import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, fakeReply, type FakeUpstream } from '@allmenning/core/testing'
import { createRequestBudget } from '../shared/request-budget.js'
import { entur } from './index.js'
import { SHARED_MOBILITY_QUERY } from './shared-mobility.js'
import { startFakeEnturGeocoder } from './testing/fake-entur.js'
import { startFakeEnturMobility, type FakeEnturMobility } from './testing/fake-entur-mobility.js'

let mobility: FakeEnturMobility
let geocoder: FakeUpstream

beforeAll(async () => {
  ;[mobility, geocoder] = await Promise.all([startFakeEnturMobility(), startFakeEnturGeocoder()])
})
afterAll(() => Promise.all([mobility.close(), geocoder.close()]))

const gatewayFor = () =>
  createTestGateway({
    sources: entur({ requestBudget: createRequestBudget({ requests: 100, perMs: 1000, maxWaitMs: 1000 }) }),
    upstreams: { entur_mobility: mobility, entur_geocoder: geocoder },
    upstream: { userAgent: 'allmenning/0.1.0 (+ops@example.no)', timeoutMs: 1000, breakAfterFailures: 0 },
  })

type Row = { id: string; distance_m: number }
const rows = (list: Row[]) => list.map((r) => [r.id, r.distance_m])
const lastQuestion = () => mobility.questions[mobility.questions.length - 1]!
const oslo = { lat: 59.91, lon: 10.75 }

describe('find_shared_mobility_nearby', () => {
  it('asks Entur once for vehicles and stations within radius_m metres, with ET-Client-Name, and answers each nearest first', async () => {
    const gateway = gatewayFor()
    const { status, json, headers } = await gateway.call('entur', 'find_shared_mobility_nearby', {
      ...oslo,
      radius_m: 500,
    })
    expect(status).toBe(200)
    expect(mobility.received.at(-1)!.headers['et-client-name']).toBe('example.no-allmenning')
    expect(lastQuestion()).toEqual({
      query: SHARED_MOBILITY_QUERY,
      variables: {
        lat: 59.91,
        lon: 10.75,
        range: 500,
        vehicleCount: 21,
        stationCount: 21,
        formFactors: null,
        includeReserved: false,
        includeDisabled: false,
      },
    })
    // Entur answers in id order; the rows are nearest first. The reserved and the disabled scooter are left out.
    expect(rows(json.data.vehicles)).toEqual([
      ['YRY:Vehicle:36f675cc', 59],
      ['YVO:Vehicle:6513270e-269e-0d37-f2a7-4de452e6b438', 100],
      ['YBO:Vehicle:90c192cfa170b338', 131],
      ['YVO:Vehicle:9531985d-5d9d-c9f8-1818-e811892f902b', 230],
      ['YDT:Vehicle:6b4cb242', 288],
      ['YRY:Vehicle:6b0d549b', 295],
      ['YVO:Vehicle:d23f0824-128b-2f33-0c5c-7fd0a6a3a450', 345],
      ['YDT:Vehicle:8e81973e', 367],
      ['YHY:Vehicle:92276658-1e27-a1c0-8a6a-63ec24ede6a4', 406],
    ])
    expect(rows(json.data.stations)).toEqual([
      ['YOS:Station:599', 36],
      ['YOS:Station:481', 192],
      ['YOS:Station:437', 232],
      ['YOS:Station:1755', 395],
      ['YHY:Station:e1f0c5d2', 415],
      ['YOS:Station:2350', 437],
    ])
    expect(json.data).toMatchObject({ radius_m: 500, returned: 9, has_more_results: false, stations_truncated: false })
    expect(headers['cache-control']).toMatch(/max-age=15\b/)
    expect(json._provenance.upstreams).toEqual([
      expect.objectContaining({
        id: 'entur_mobility',
        publisher: expect.stringMatching(/^Entur AS/),
        license: 'NLOD 2.0',
      }),
    ])
    expect(gateway.errors).toEqual([])
  })

  it("gives the row fields the public gateway's clients read, names picked from Entur's translations", async () => {
    const { json } = await gatewayFor().call('entur', 'find_shared_mobility_nearby', oslo)
    expect(json.data.vehicles[1]).toEqual({
      id: 'YVO:Vehicle:6513270e-269e-0d37-f2a7-4de452e6b438',
      form_factor: 'SCOOTER_STANDING',
      propulsion: 'ELECTRIC',
      lat: 59.910721,
      lon: 10.748937,
      distance_m: 100,
      reserved: false,
      disabled: false,
      range_m: 18400,
      operator: 'VOI Technology Norway AS',
      operator_id: 'YVO:Operator:voi',
      system_id: 'voioslo',
      system_name: 'Voi Oslo',
    })
    expect(json.data.stations[0]).toEqual({
      id: 'YOS:Station:599',
      name: 'Paléhaven',
      address: "Biskop Gunnerus' gate 2",
      lat: 59.91032,
      lon: 10.749993,
      distance_m: 36,
      vehicles_available: 3,
      docks_available: 18,
      capacity: 21,
      renting: true,
      returning: true,
      operator: 'UIP Bauer Media Outdoor Norge AS',
      system_id: 'oslobysykkel',
      system_name: 'Oslo Bysykkel',
    })
    // A car park has no docks.
    expect(json.data.stations.find((s: { id: string }) => s.id === 'YHY:Station:e1f0c5d2')).toMatchObject({
      docks_available: null,
      vehicles_available: 2,
    })
    // The default radius is 500 m.
    expect(lastQuestion().variables['range']).toBe(500)
  })

  it('includes reserved and disabled vehicles only when asked, and says which they are', async () => {
    const { json } = await gatewayFor().call('entur', 'find_shared_mobility_nearby', {
      ...oslo,
      include_reserved: true,
      include_disabled: true,
    })
    expect(lastQuestion().variables).toMatchObject({ includeReserved: true, includeDisabled: true })
    expect(json.data.vehicles).toHaveLength(11)
    expect(json.data.vehicles.filter((v: { reserved: boolean }) => v.reserved).map((v: Row) => v.id)).toEqual([
      'YBO:Vehicle:0fd630f10cb1e29c',
    ])
    expect(json.data.vehicles.filter((v: { disabled: boolean }) => v.disabled).map((v: Row) => v.id)).toEqual([
      'YRY:Vehicle:8d116ece',
    ])
  })

  it('sends form_factor as Entur spells it, for vehicles and for the stations that have one', async () => {
    const gateway = gatewayFor()
    const cars = await gateway.call('entur', 'find_shared_mobility_nearby', { ...oslo, form_factor: 'car' })
    expect(lastQuestion().variables['formFactors']).toEqual(['CAR'])
    expect(cars.json.data.vehicles.map((v: Row) => v.id)).toEqual(['YHY:Vehicle:92276658-1e27-a1c0-8a6a-63ec24ede6a4'])
    expect(cars.json.data.stations.map((s: Row) => s.id)).toEqual(['YHY:Station:e1f0c5d2'])
    // SCOOTER is Entur's older name: it finds the standing scooters, and no station has scooters.
    const scooters = await gateway.call('entur', 'find_shared_mobility_nearby', { ...oslo, form_factor: 'SCOOTER' })
    expect(scooters.json.data.vehicles.map((v: { form_factor: string }) => v.form_factor)).toEqual(
      Array(6).fill('SCOOTER_STANDING'),
    )
    expect(scooters.json.data.stations).toEqual([])
  })

  it('pages vehicles by limit and offset; stations are the nearest limit on every page, and stations_truncated says they were cut', async () => {
    const gateway = gatewayFor()
    const first = await gateway.call('entur', 'find_shared_mobility_nearby', { ...oslo, limit: 3 })
    expect(lastQuestion().variables).toMatchObject({ vehicleCount: 4, stationCount: 4 })
    expect(first.json.data).toMatchObject({ returned: 3, has_more_results: true, stations_truncated: true })
    expect(first.json.data.vehicles.map((v: Row) => v.distance_m)).toEqual([59, 100, 131])
    expect(first.json.data.stations.map((s: Row) => s.id)).toEqual([
      'YOS:Station:599',
      'YOS:Station:481',
      'YOS:Station:437',
    ])
    expect(first.json._meta.pagination).toMatchObject({ limit: 3, offset: 0, returned: 3, has_more_results: true })
    const last = await gateway.call('entur', 'find_shared_mobility_nearby', { ...oslo, limit: 3, offset: 6 })
    expect(lastQuestion().variables).toMatchObject({ vehicleCount: 10, stationCount: 4 })
    expect(last.json.data).toMatchObject({ returned: 3, has_more_results: false, stations_truncated: true })
    expect(last.json.data.vehicles.map((v: Row) => v.distance_m)).toEqual([345, 367, 406])
    expect(last.json.data.stations).toEqual(first.json.data.stations)
  })

  it('refuses bad input with a 400 naming the parameter and the rule, without asking Entur', async () => {
    const gateway = gatewayFor()
    const before = mobility.received.length
    for (const [query, parameter] of [
      [{ ...oslo, radius_m: 5001 }, 'radius_m'],
      [{ ...oslo, radius_m: 0 }, 'radius_m'],
      [{ ...oslo, radius_m: 2.5 }, 'radius_m'],
      [{ ...oslo, form_factor: 'BOAT' }, 'form_factor'],
      [{ ...oslo, limit: 201 }, 'limit'],
      [{ ...oslo, limit: 200, offset: 201 }, 'offset'],
      [{ lat: 59.91 }, 'lon'],
    ] as const) {
      const { status, json } = await gateway.call('entur', 'find_shared_mobility_nearby', query)
      expect(status, JSON.stringify(query)).toBe(400)
      expect(json.error.details[0].parameter).toBe(parameter)
    }
    const deep = await gateway.call('entur', 'find_shared_mobility_nearby', { ...oslo, limit: 100, offset: 301 })
    expect(deep.json.error.message).toMatch(/offset must leave offset \+ limit at most 400/)
    expect(mobility.received.length).toBe(before)
  })

  it('is a 502 naming Entur Mobility when it answers GraphQL errors in a 200, or a shape that is not its answer', async () => {
    const gateway = gatewayFor()
    mobility.failWith(
      fakeReply.json({
        errors: [{ message: 'Range must be non-negative', path: ['vehicles'] }],
        data: { vehicles: null },
      }),
      { times: 1 },
    )
    const refused = await gateway.call('entur', 'find_shared_mobility_nearby', { ...oslo, radius_m: 700 })
    expect(refused.status).toBe(502)
    expect(refused.json.error.message).toMatch(
      /^Upstream Entur Mobility v2 \(entur_mobility\) answered GraphQL errors in an HTTP 200 answer: Range must be non-negative/,
    )
    mobility.failWith(fakeReply.json({ data: { vehicles: {}, stations: [] } }), { times: 1 })
    const odd = await gateway.call('entur', 'find_shared_mobility_nearby', { ...oslo, radius_m: 800 })
    expect([odd.status, odd.json.error.code]).toEqual([502, 'upstream_invalid_response'])
    expect(gateway.errors).toEqual([])
  })

  it('fills the shared_mobility field of the places bundle, in the transport section', async () => {
    const { status, json } = await gatewayFor().get('/api/v1/steder/59.91/10.75', { fields: 'shared_mobility' })
    expect(status).toBe(200)
    expect(json.fields.shared_mobility).toMatchObject({
      status: 'ok',
      source: 'entur',
      operation: 'find_shared_mobility_nearby',
    })
    expect(json.fields.shared_mobility.data.vehicles[0]).toMatchObject({
      id: 'YRY:Vehicle:36f675cc',
      form_factor: 'SCOOTER_STANDING',
    })
    expect(json.fields.shared_mobility.data.stations[0]).toMatchObject({ id: 'YOS:Station:599', vehicles_available: 3 })
    expect(json.fields.shared_mobility.attribution).toEqual([
      expect.objectContaining({ upstream: 'entur_mobility', license: 'NLOD 2.0' }),
    ])
  })
})
