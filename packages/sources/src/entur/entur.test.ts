import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, fakeReply, type FakeUpstream } from '@allmenning/core/testing'
import { builtInSources } from '../built-in-sources.js'
import { createRequestBudget } from '../shared/request-budget.js'
import { entur, type EnturOptions } from './index.js'
import {
  enturDepartures,
  graphqlValidationError,
  type FakeJourneyPlanner,
  startFakeEnturGeocoder,
  startFakeEnturJourneyPlanner,
} from './testing/fake-entur.js'
import { startFakeEnturMobility } from './testing/fake-entur-mobility.js'
import { startFakeEnturVehicles } from './testing/fake-entur-vehicles.js'

let journeyPlanner: FakeJourneyPlanner
let geocoder: FakeUpstream
let vehicles: FakeUpstream
let mobility: FakeUpstream

beforeAll(async () => {
  ;[journeyPlanner, geocoder, vehicles, mobility] = await Promise.all([
    startFakeEnturJourneyPlanner(),
    startFakeEnturGeocoder(),
    startFakeEnturVehicles(),
    startFakeEnturMobility(),
  ])
})
afterAll(() => Promise.all([journeyPlanner.close(), geocoder.close(), vehicles.close(), mobility.close()]))

const gatewayFor = (options: EnturOptions = {}, userAgent = 'allmenning/0.1.0 (+ops@example.no)') =>
  createTestGateway({
    sources: entur({ requestBudget: createRequestBudget({ requests: 100, perMs: 1000, maxWaitMs: 1000 }), ...options }),
    upstreams: {
      entur_journey_planner: journeyPlanner,
      entur_geocoder: geocoder,
      entur_vehicles: vehicles,
      entur_mobility: mobility,
    },
    upstream: { userAgent, timeoutMs: 1000, breakAfterFailures: 0 },
  })

const lastRequest = (fake: FakeUpstream) => fake.received[fake.received.length - 1]!

describe('search_stops', () => {
  it("asks the geocoder's venue layer and answers the stop places only, with the contact's ET-Client-Name", async () => {
    const gateway = gatewayFor()
    const { status, json, headers } = await gateway.call('entur', 'search_stops', { query: 'Kaiparken' })
    expect(status).toBe(200)
    // The stop register changes with the timetables: a day.
    expect(headers['cache-control']).toMatch(/max-age=86400\b/)
    const asked = lastRequest(geocoder)
    expect(asked.path).toBe('/autocomplete')
    expect(Object.fromEntries(asked.query)).toEqual({ text: 'Kaiparken', lang: 'no', size: '50', layers: 'venue' })
    expect(asked.headers['et-client-name']).toBe('example.no-allmenning')
    // The group of stop places and the kiosk of the venue layer are not stop places.
    expect(json.data.stops.map((s: { id: string }) => s.id)).toEqual([
      'NSR:StopPlace:90101',
      'NSR:StopPlace:90102',
      'NSR:StopPlace:90104',
    ])
    expect(json.data.stops[0]).toEqual({
      id: 'NSR:StopPlace:90101',
      name: 'Kaiparken',
      label: 'Kaiparken, Oslo',
      municipality: 'Oslo',
      county: 'Oslo',
      category: ['onstreetBus', 'onstreetTram'],
      tariff_zones: ['RUT:TariffZone:1', 'RUT:FareZone:4'],
      lat: 59.9071,
      lon: 10.7493,
    })
    // The geocoder repeats a category once per quay of that kind; each is said once.
    expect(json.data.stops[2].category).toEqual(['railStation', 'onstreetBus'])
    expect(json._provenance.upstreams).toEqual([
      expect.objectContaining({
        id: 'entur_geocoder',
        publisher: expect.stringMatching(/^Entur AS/),
        license: 'NLOD 2.0',
      }),
    ])
    expect(gateway.errors).toEqual([])
  })

  it("answers in the shape the public gateway's clients read: data.stops and data.returned, each stop with its fields", async () => {
    const { status, json } = await gatewayFor().call('entur', 'search_stops', { query: 'Kaiparken', limit: 2 })
    expect(status).toBe(200)
    expect(json.data).toMatchObject({ returned: 2, has_more_results: true })
    expect(json.data.stops).toHaveLength(2)
    for (const stop of json.data.stops) {
      expect(stop).toEqual(
        expect.objectContaining({
          id: expect.stringMatching(/^NSR:StopPlace:\d+$/),
          name: expect.any(String),
          category: expect.any(Array),
          lat: expect.any(Number),
          lon: expect.any(Number),
          label: expect.any(String),
          municipality: 'Oslo',
          county: 'Oslo',
        }),
      )
    }
    const next = await gatewayFor().call('entur', 'search_stops', { query: 'Kaiparken', limit: 2, offset: 2 })
    expect(next.json.data).toMatchObject({
      returned: 1,
      has_more_results: false,
      stops: [{ id: 'NSR:StopPlace:90104' }],
    })
  })

  it('takes the free text as query, as the clients send it: text is a 400 naming it', async () => {
    const { status, json } = await gatewayFor().call('entur', 'search_stops', { text: 'Kaiparken' })
    expect(status).toBe(400)
    expect(json.error.details[0]).toMatchObject({ parameter: 'text' })
    const missing = await gatewayFor().call('entur', 'search_stops', {})
    expect([missing.status, missing.json.error.details[0].parameter]).toEqual([400, 'query'])
  })

  it('sends a configured client name instead of the derived one', async () => {
    await gatewayFor({ clientName: 'example_as-rutetavle' }).call('entur', 'search_stops', { query: 'Nordre' })
    expect(lastRequest(geocoder).headers['et-client-name']).toBe('example_as-rutetavle')
  })

  it('refuses an empty query with a 400 naming it, without asking Entur', async () => {
    const before = geocoder.received.length
    const { status, json } = await gatewayFor().call('entur', 'search_stops', { query: ' ' })
    expect(status).toBe(400)
    expect(json.error.details[0]).toMatchObject({ parameter: 'query' })
    expect(geocoder.received.length).toBe(before)
  })

  it('is a 502 naming the geocoder when it fails, or answers something that is not a FeatureCollection', async () => {
    const gateway = gatewayFor()
    geocoder.failWith(fakeReply.status(503, 'Service Unavailable'), { times: 1 })
    const down = await gateway.call('entur', 'search_stops', { query: 'Tollbod' })
    expect(down.status).toBe(502)
    expect(down.json.error.message).toMatch(/Entur geocoder \(entur_geocoder\)/)
    geocoder.failWith(fakeReply.json({ results: [] }), { times: 1 })
    const odd = await gateway.call('entur', 'search_stops', { query: 'Granlia' })
    expect(odd.status).toBe(502)
    expect(odd.json.error.code).toBe('upstream_invalid_response')
  })
})

describe('find_stops_nearby', () => {
  it('asks for venues around the point and answers those within the radius, nearest first', async () => {
    const { status, json } = await gatewayFor().call('entur', 'find_stops_nearby', {
      lat: 59.9071,
      lon: 10.7493,
      radius_km: 1,
    })
    expect(status).toBe(200)
    expect(Object.fromEntries(lastRequest(geocoder).query)).toEqual({
      'point.lat': '59.907',
      'point.lon': '10.749',
      'boundary.circle.radius': '1',
      size: '100',
      layers: 'venue',
    })
    expect(lastRequest(geocoder).headers['et-client-name']).toBe('example.no-allmenning')
    expect(json.data.map((s: { id: string; distance_km: number }) => [s.id, s.distance_km])).toEqual([
      ['NSR:StopPlace:90101', 0.02],
      ['NSR:StopPlace:90102', 0.257],
      ['NSR:StopPlace:90103', 0.414],
      ['NSR:StopPlace:90104', 0.578],
    ])
  })

  it('fills the stops field of the places bundle, in the transport section', async () => {
    const gateway = gatewayFor()
    const { status, json } = await gateway.get('/api/v1/steder/59.9071/10.7493', { section: 'transport' })
    expect(status).toBe(200)
    expect(Object.keys(json.fields)).toEqual(['stops', 'shared_mobility'])
    expect(json.fields.stops).toMatchObject({ status: 'ok', source: 'entur', operation: 'find_stops_nearby' })
    expect(json.fields.stops.data[0]).toMatchObject({ id: 'NSR:StopPlace:90101', name: 'Kaiparken' })
    expect(json.fields.stops.attribution).toEqual([
      expect.objectContaining({ upstream: 'entur_geocoder', license: 'NLOD 2.0' }),
    ])
  })
})

describe('get_departures', () => {
  it("posts the departures query with Entur's header and answers data.stopPlace as Entur gives it", async () => {
    const gateway = gatewayFor()
    const { status, json, headers } = await gateway.call('entur', 'get_departures', {
      stop_place_id: 'NSR:StopPlace:90101',
      number_of_departures: 3,
      time_range_seconds: 3600,
    })
    expect(status).toBe(200)
    const asked = lastRequest(journeyPlanner)
    expect([asked.method, asked.path, asked.headers['et-client-name'], asked.headers['content-type']]).toEqual([
      'POST',
      '/graphql',
      'example.no-allmenning',
      'application/json',
    ])
    const stop = enturDepartures['NSR:StopPlace:90101']!
    expect(json.data).toEqual({ ...stop, estimatedCalls: stop.estimatedCalls.slice(0, 3) })
    expect(json.data.estimatedCalls[0].serviceJourney.journeyPattern.line).toEqual({
      id: 'RUT:Line:34',
      publicCode: '34',
      name: 'Kaiparken - Lysaker',
      transportMode: 'bus',
    })
    expect(json.data.estimatedCalls[2]).toMatchObject({ realtime: false, quay: { publicCode: null } })
    // Departures are kept half a minute.
    expect(headers['cache-control']).toMatch(/max-age=30\b/)
    expect(json.entities).toEqual([
      expect.objectContaining({ type: 'stop_place', id: 'NSR:StopPlace:90101', name: 'Kaiparken' }),
    ])
    expect(gateway.errors).toEqual([])
  })

  it("answers the object the public gateway's clients read: data.name and data.estimatedCalls[] with Entur's fields", async () => {
    const { status, json } = await gatewayFor().call('entur', 'get_departures', {
      stop_place_id: 'NSR:StopPlace:90101',
      number_of_departures: 5,
      time_range_seconds: 7200,
    })
    expect(status).toBe(200)
    expect(json.data.name).toBe('Kaiparken')
    expect(Array.isArray(json.data.estimatedCalls)).toBe(true)
    // No paging envelope around it: data is Entur's stopPlace itself.
    expect(Object.keys(json.data).sort()).toEqual(['estimatedCalls', 'id', 'name'])
    for (const call of json.data.estimatedCalls) {
      expect(call).toEqual(
        expect.objectContaining({
          realtime: expect.any(Boolean),
          cancellation: expect.any(Boolean),
          aimedDepartureTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/),
          expectedDepartureTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/),
          destinationDisplay: { frontText: expect.any(String) },
          quay: expect.objectContaining({ id: expect.stringMatching(/^NSR:Quay:/) }),
        }),
      )
      const line = call.serviceJourney.journeyPattern.line
      expect(line).toEqual(
        expect.objectContaining({ publicCode: expect.any(String), transportMode: expect.stringMatching(/^[a-z]+$/) }),
      )
      expect(call.serviceJourney.line).toEqual(line)
    }
  })

  it('sends number_of_departures and time_range_seconds as the GraphQL variables, with their defaults', async () => {
    const gateway = gatewayFor()
    await gateway.call('entur', 'get_departures', {
      stop_place_id: 'NSR:StopPlace:90104',
      number_of_departures: 7,
      time_range_seconds: 600,
    })
    await gateway.call('entur', 'get_departures', { stop_place_id: 'NSR:StopPlace:90104' })
    const [given, defaults] = journeyPlanner.questions.slice(-2)
    expect(given!.variables).toEqual({ id: 'NSR:StopPlace:90104', numberOfDepartures: 7, timeRange: 600 })
    expect(defaults!.variables).toEqual({ id: 'NSR:StopPlace:90104', numberOfDepartures: 20, timeRange: 86_400 })
    expect(defaults!.query).toMatch(
      /estimatedCalls\(numberOfDepartures: \$numberOfDepartures, timeRange: \$timeRange, includeCancelledTrips: true\)/,
    )
  })

  it('is a 404 for a stop place Entur does not know (stopPlace null in a 200)', async () => {
    const { status, json } = await gatewayFor().call('entur', 'get_departures', { stop_place_id: 'NSR:StopPlace:1' })
    expect(status).toBe(404)
    expect(json.error).toMatchObject({ code: 'entity_not_found', message: 'Entur knows no stop place NSR:StopPlace:1' })
  })

  it('refuses a malformed id and out-of-range counts with a 400 naming the parameter, without asking Entur', async () => {
    const gateway = gatewayFor()
    const before = journeyPlanner.received.length
    for (const [query, parameter] of [
      [{ stop_place_id: '337' }, 'stop_place_id'],
      [{ stop_place_id: 'NSR:Quay:7' }, 'stop_place_id'],
      [{ stop_place_id: 'NSR:StopPlace:337', number_of_departures: 0 }, 'number_of_departures'],
      [{ stop_place_id: 'NSR:StopPlace:337', time_range_seconds: 172_801 }, 'time_range_seconds'],
    ] as const) {
      const { status, json } = await gateway.call('entur', 'get_departures', query)
      expect(status, JSON.stringify(query)).toBe(400)
      expect(json.error.details[0].parameter).toBe(parameter)
    }
    expect(json400Message((await gateway.call('entur', 'get_departures', { stop_place_id: '337' })).json)).toMatch(
      /NSR:StopPlace:337/,
    )
    expect(journeyPlanner.received.length).toBe(before)
  })

  it('is a 502 naming JourneyPlanner when it answers GraphQL errors with HTTP 200', async () => {
    const gateway = gatewayFor()
    journeyPlanner.failWith(
      graphqlValidationError(
        "Validation error (WrongType@[stopPlace]) : argument 'id' with value 'x' is not a valid 'String'",
      ),
      { times: 1 },
    )
    const { status, json } = await gateway.call('entur', 'get_departures', { stop_place_id: 'NSR:StopPlace:90104' })
    expect(status).toBe(502)
    expect(json.error.code).toBe('upstream_error')
    expect(json.error.message).toMatch(
      /^Upstream Entur JourneyPlanner v3 \(entur_journey_planner\) answered GraphQL errors in an HTTP 200 answer: Validation error/,
    )
    expect(gateway.errors).toEqual([])
  })

  it('is a 502 naming JourneyPlanner when it is down or rate-limits', async () => {
    const gateway = gatewayFor()
    journeyPlanner.failWith(
      fakeReply.json({ message: 'Too many requests' }, { status: 429, headers: { 'retry-after': '2' } }),
      { times: 1 },
    )
    const { status, json } = await gateway.call('entur', 'get_departures', {
      stop_place_id: 'NSR:StopPlace:90101',
      number_of_departures: 2,
    })
    expect(status).toBe(502)
    expect(json.error.message).toMatch(/entur_journey_planner\) rate limited the gateway/)
    // Entur's Retry-After is honoured: the next call waits it out without asking.
    const before = journeyPlanner.received.length
    const rested = await gateway.call('entur', 'get_departures', {
      stop_place_id: 'NSR:StopPlace:90104',
      number_of_departures: 2,
    })
    expect([rested.status, rested.json.error.code]).toEqual([502, 'upstream_resting'])
    expect(journeyPlanner.received.length).toBe(before)
  })
})

describe('configuration from the environment', () => {
  it('reaches Entur where ALLMENNING_UPSTREAM_ENTUR_GEOCODER, _JOURNEY_PLANNER, _VEHICLES and _MOBILITY point', async () => {
    const sources = builtInSources({
      ALLMENNING_UPSTREAM_ENTUR_GEOCODER: geocoder.baseUrl,
      ALLMENNING_UPSTREAM_ENTUR_JOURNEY_PLANNER: journeyPlanner.baseUrl,
      ALLMENNING_UPSTREAM_ENTUR_VEHICLES: vehicles.baseUrl,
      ALLMENNING_UPSTREAM_ENTUR_MOBILITY: mobility.baseUrl,
    })
    const gateway = createTestGateway({ sources: sources.filter((source) => source.id === 'entur') })
    expect(
      (await gateway.call('entur', 'search_stops', { query: 'Granlia' })).json.data.stops.map(
        (s: { id: string }) => s.id,
      ),
    ).toEqual(['NSR:StopPlace:90201'])
    expect((await gateway.call('entur', 'get_departures', { stop_place_id: 'NSR:StopPlace:90104' })).status).toBe(200)
    const near = await gateway.call('entur', 'find_live_vehicles_nearby', { lat: 60.391, lon: 5.327, radius_km: 1 })
    expect(near.json.data.vehicles.map((v: { vehicle_id: string }) => v.vehicle_id)).toEqual([
      '8412',
      '214',
      '62-2026-09-23',
    ])
    const shared = await gateway.call('entur', 'find_shared_mobility_nearby', { lat: 63.431, lon: 10.396 })
    expect(shared.json.data.stations.map((s: { id: string }) => s.id)).toEqual(['YTB:Station:48'])
  })
})

describe('the request budget', () => {
  it('keeps every Entur call within it: a call past it is a 502 naming the upstream, and Entur is not asked', async () => {
    const gateway = gatewayFor({ requestBudget: createRequestBudget({ requests: 1, perMs: 60_000, maxWaitMs: 0 }) })
    expect((await gateway.call('entur', 'search_stops', { query: 'Kaiparken b' })).status).toBe(200)
    const before = journeyPlanner.received.length
    const { status, json } = await gateway.call('entur', 'get_departures', {
      stop_place_id: 'NSR:StopPlace:90104',
      number_of_departures: 9,
    })
    expect(status).toBe(502)
    expect(json.error.message).toMatch(
      /^Upstream Entur JourneyPlanner v3 \(entur_journey_planner\) was not called: the gateway keeps to 1 requests per 60 s/,
    )
    expect(journeyPlanner.received.length).toBe(before)
  })
})

describe('entity search', () => {
  it('finds stop places by name, linked to their departures', async () => {
    const { status, json } = await gatewayFor().get('/api/v1/sok/alle', { q: 'Kaiparken stasjon', mode: 'entities' })
    expect(status).toBe(200)
    expect(json.results[0]).toMatchObject({
      type: 'stop_place',
      id: 'NSR:StopPlace:90104',
      source: 'entur',
      _links: { api: '/api/v1/kilder/entur/get_departures?stop_place_id=NSR%3AStopPlace%3A90104' },
    })
  })
})

function json400Message(json: { error: { message: string } }): string {
  return json.error.message
}
