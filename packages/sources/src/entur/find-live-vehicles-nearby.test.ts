import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, fakeReply } from '@allmenning/core/testing'
import { createRequestBudget } from '../shared/request-budget.js'
import { entur, type EnturOptions } from './index.js'
import { graphqlValidationError } from './testing/fake-entur.js'
import { startFakeEnturVehicles, type FakeEnturVehicles } from './testing/fake-entur-vehicles.js'
import { VEHICLES_QUERY } from './vehicle-positions.js'

let vehicles: FakeEnturVehicles

beforeAll(async () => {
  vehicles = await startFakeEnturVehicles()
})
afterAll(() => vehicles.close())

const gatewayFor = (options: EnturOptions = {}) =>
  createTestGateway({
    sources: entur({ requestBudget: createRequestBudget({ requests: 100, perMs: 1000, maxWaitMs: 1000 }), ...options }),
    upstreams: { entur_vehicles: vehicles },
    upstream: { userAgent: 'allmenning/0.1.0 (+ops@example.no)', timeoutMs: 1000, breakAfterFailures: 0 },
  })

const ids = (json: { data: { vehicles: { vehicle_id: string | null }[] } }) =>
  json.data.vehicles.map((v) => v.vehicle_id)
const lastQuestion = () => vehicles.questions[vehicles.questions.length - 1]!

describe('find_live_vehicles_nearby', () => {
  it("posts Entur's vehicles query for the box around the circle, with ET-Client-Name, and answers those within the radius, nearest first", async () => {
    const gateway = gatewayFor()
    const { status, json, headers } = await gateway.call('entur', 'find_live_vehicles_nearby', {
      lat: 59.91,
      lon: 10.75,
      radius_km: 1,
    })
    expect(status).toBe(200)
    const asked = vehicles.received[vehicles.received.length - 1]!
    expect([asked.method, asked.path, asked.headers['et-client-name'], asked.headers['content-type']]).toEqual([
      'POST',
      '/graphql',
      'example.no-allmenning',
      'application/json',
    ])
    expect(lastQuestion()).toEqual({
      query: VEHICLES_QUERY,
      variables: {
        boundingBox: { minLat: 59.901017, minLon: 10.732083, maxLat: 59.918983, maxLon: 10.767917 },
        mode: null,
      },
    })
    expect(
      json.data.vehicles.map((v: { vehicle_id: string; distance_m: number }) => [v.vehicle_id, v.distance_m]),
    ).toEqual([
      ['3215', 237],
      ['101241', 251],
      ['1137-2026-09-23', 312],
      ['100512', 499],
      ['101877', 560],
      ['228', 626],
      ['1847-2026-09-23', 733],
    ])
    expect(json.data).toMatchObject({ count: 7, returned: 7, has_more_results: false })
    // Positions move every few seconds.
    expect(headers['cache-control']).toMatch(/max-age=10\b/)
    expect(json._provenance.upstreams).toEqual([
      expect.objectContaining({
        id: 'entur_vehicles',
        publisher: expect.stringMatching(/^Entur AS/),
        license: 'NLOD 2.0',
      }),
    ])
    expect(gateway.errors).toEqual([])
  })

  it("gives the row fields the public gateway's clients read, with Entur's train id unchanged and numbers as numbers", async () => {
    const { json } = await gatewayFor().call('entur', 'find_live_vehicles_nearby', {
      lat: 59.91,
      lon: 10.75,
      radius_km: 1,
    })
    const train = json.data.vehicles.find((v: { vehicle_id: string }) => v.vehicle_id === '1137-2026-09-23')
    expect(train).toEqual({
      vehicle_id: '1137-2026-09-23',
      mode: 'RAIL',
      line: 'R11',
      line_name: 'Skien - Eidsvoll',
      line_ref: 'VYG:Line:R11',
      // Trains publish no destination.
      destination: null,
      origin: null,
      operator: 'Vy',
      operator_ref: 'VYG:Operator:VYG',
      codespace: 'VYG',
      service_journey_id: 'VYG:ServiceJourney:1137-R11-2026',
      lat: 59.910911,
      lon: 10.755284,
      distance_m: 312,
      bearing: 62,
      delay_seconds: 120,
      monitored: true,
      status: null,
      occupancy: 'noData',
      last_updated: '2026-09-23T14:05:14+02:00',
    })
    // Clients take the train number as what stands before the first "-".
    expect(train.vehicle_id.split('-')[0]).toBe('1137')
    const bus = json.data.vehicles.find((v: { vehicle_id: string }) => v.vehicle_id === '101241')
    expect(bus).toMatchObject({
      mode: 'BUS',
      line: '31',
      line_name: 'Snarøya - Tonsenhagen',
      destination: 'Tonsenhagen',
      delay_seconds: 45,
      last_updated: '2026-09-23T14:05:17.532+02:00',
    })
    // A bus on no line: Entur's empty lineRef and null names are nulls here.
    expect(json.data.vehicles.find((v: { vehicle_id: string }) => v.vehicle_id === '100512')).toMatchObject({
      line: null,
      line_name: null,
      line_ref: null,
      operator: null,
      service_journey_id: null,
      bearing: null,
      delay_seconds: null,
      status: 'ASSIGNED',
    })
    // An estimated position, without a bearing, ahead of time.
    expect(json.data.vehicles.find((v: { vehicle_id: string }) => v.vehicle_id === '101877')).toMatchObject({
      monitored: false,
      bearing: null,
      delay_seconds: 310,
    })
  })

  it("cuts the circle out of Entur's box: a vehicle in the box's corner is left out", async () => {
    const { json } = await gatewayFor().call('entur', 'find_live_vehicles_nearby', {
      lat: 59.91,
      lon: 10.75,
      radius_km: 1.4,
    })
    const box = lastQuestion().variables['boundingBox'] as { minLat: number; minLon: number }
    // The ferry at 59.904655, 10.726019 is inside the box, 1463 m away: outside the circle.
    expect(59.904655 > box.minLat && 10.726019 > box.minLon).toBe(true)
    expect(ids(json)).not.toContain('5402')
    expect(json.data.count).toBe(7)
    const wider = await gatewayFor().call('entur', 'find_live_vehicles_nearby', {
      lat: 59.91,
      lon: 10.75,
      radius_km: 1.5,
    })
    expect(ids(wider.json)).toContain('5402')
  })

  it('sends mode as Entur spells it and answers only that mode', async () => {
    const { status, json } = await gatewayFor().call('entur', 'find_live_vehicles_nearby', {
      lat: 59.91,
      lon: 10.75,
      radius_km: 2,
      mode: 'rail',
    })
    expect(status).toBe(200)
    expect(lastQuestion().variables['mode']).toBe('RAIL')
    expect(ids(json)).toEqual(['1137-2026-09-23', '1847-2026-09-23'])
    expect(json.data.vehicles.every((v: { mode: string }) => v.mode === 'RAIL')).toBe(true)
  })

  it('pages vehicles with limit and offset, count saying how many are within the radius', async () => {
    const gateway = gatewayFor()
    const first = await gateway.call('entur', 'find_live_vehicles_nearby', {
      lat: 59.91,
      lon: 10.75,
      radius_km: 1,
      limit: 3,
    })
    expect(first.json.data).toMatchObject({ count: 7, returned: 3, has_more_results: true })
    expect(ids(first.json)).toEqual(['3215', '101241', '1137-2026-09-23'])
    expect(first.json._meta.pagination).toMatchObject({
      limit: 3,
      offset: 0,
      returned: 3,
      has_more_results: true,
      total: 7,
    })
    const last = await gateway.call('entur', 'find_live_vehicles_nearby', {
      lat: 59.91,
      lon: 10.75,
      radius_km: 1,
      limit: 3,
      offset: 6,
    })
    expect(last.json.data).toMatchObject({ count: 7, returned: 1, has_more_results: false })
    expect(ids(last.json)).toEqual(['1847-2026-09-23'])
  })

  it('answers an empty list where no vehicle is reported, not an error', async () => {
    const { status, json } = await gatewayFor().call('entur', 'find_live_vehicles_nearby', {
      lat: 69.65,
      lon: 18.96,
      radius_km: 1,
    })
    expect(status).toBe(200)
    expect(json.data).toMatchObject({ count: 0, returned: 0, vehicles: [], has_more_results: false })
  })

  it('refuses a mode Entur does not know and a radius past 20 km with a 400 naming the parameter, without asking Entur', async () => {
    const gateway = gatewayFor()
    const before = vehicles.received.length
    for (const [query, parameter] of [
      [{ lat: 59.91, lon: 10.75, mode: 'SHIP' }, 'mode'],
      [{ lat: 59.91, lon: 10.75, radius_km: 21 }, 'radius_km'],
      [{ lat: 59.91, lon: 10.75, radius_km: 0 }, 'radius_km'],
      [{ lat: 91, lon: 10.75 }, 'lat'],
      [{ lat: 59.91, lon: 10.75, limit: 201 }, 'limit'],
    ] as const) {
      const { status, json } = await gateway.call('entur', 'find_live_vehicles_nearby', query)
      expect(status, JSON.stringify(query)).toBe(400)
      expect(json.error.details[0].parameter).toBe(parameter)
    }
    expect(vehicles.received.length).toBe(before)
  })

  it('is a 502 naming the vehicle positions when Entur answers GraphQL errors in a 200, or something that is not its answer', async () => {
    const gateway = gatewayFor()
    vehicles.failWith(
      graphqlValidationError(
        "Validation error (FieldUndefined@[vehicles/operator/name]) : Field 'name' in type 'Operator' is undefined",
      ),
      { times: 1 },
    )
    const refused = await gateway.call('entur', 'find_live_vehicles_nearby', { lat: 59.91, lon: 10.75, radius_km: 3 })
    expect(refused.status).toBe(502)
    expect(refused.json.error.message).toMatch(
      /^Upstream Entur vehicle positions \(entur_vehicles\) answered GraphQL errors in an HTTP 200 answer: Validation error/,
    )
    vehicles.failWith(
      fakeReply.json({ data: { vehicles: [{ vehicleId: '1', location: { latitude: '59,91', longitude: 10.75 } }] } }),
      { times: 1 },
    )
    const odd = await gateway.call('entur', 'find_live_vehicles_nearby', { lat: 59.91, lon: 10.75, radius_km: 4 })
    expect([odd.status, odd.json.error.code]).toEqual([502, 'upstream_invalid_response'])
    expect(gateway.errors).toEqual([])
  })

  it('takes its turn in the request budget Entur calls share', async () => {
    const gateway = gatewayFor({ requestBudget: createRequestBudget({ requests: 1, perMs: 60_000, maxWaitMs: 0 }) })
    expect(
      (await gateway.call('entur', 'find_live_vehicles_nearby', { lat: 59.91, lon: 10.75, radius_km: 5 })).status,
    ).toBe(200)
    const before = vehicles.received.length
    const { status, json } = await gateway.call('entur', 'find_live_vehicles_nearby', {
      lat: 59.91,
      lon: 10.75,
      radius_km: 6,
    })
    expect(status).toBe(502)
    expect(json.error.message).toMatch(
      /^Upstream Entur vehicle positions \(entur_vehicles\) was not called: the gateway keeps to 1 requests per 60 s/,
    )
    expect(vehicles.received.length).toBe(before)
  })
})
