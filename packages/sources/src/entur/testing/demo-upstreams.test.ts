import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DemoUpstreams } from '@allmenning/core/testing'
import { createTestGateway } from '@allmenning/core/testing'
import { osloDate } from '../../shared/oslo-time.js'
import { entur } from '../index.js'
import { startDemoUpstreams } from './demo-upstreams.js'

let demo: DemoUpstreams

beforeAll(async () => {
  demo = await startDemoUpstreams()
})
afterAll(() => demo.close())

const gateway = () =>
  createTestGateway({
    sources: entur(),
    upstreams: demo.fakes,
    upstream: { userAgent: 'allmenning/0.1.0 (+demo@example.no)' },
  })
const oslo = { lat: 59.91, lon: 10.75 }

describe("the entur source's demo upstreams", () => {
  it('play every upstream id of the source', async () => {
    expect(Object.keys(demo.fakes).sort()).toEqual(
      entur()
        .upstreams.map((u) => u.id)
        .sort(),
    )
  })

  it('search_stops finds stops for the documented texts, and Oslo stops for any other', async () => {
    for (const query of ['Kaiparken', 'Jernbanetorget', 'Oslo S', 'Nationaltheatret']) {
      const { status, json } = await gateway().call('entur', 'search_stops', { query })
      expect(status, query).toBe(200)
      expect(json.data.stops.length, query).toBeGreaterThan(0)
      expect(json.data.stops[0]).toMatchObject({
        id: expect.stringMatching(/^NSR:StopPlace:/),
        lat: expect.any(Number),
        lon: expect.any(Number),
      })
    }
  })

  it('get_departures answers any NSR stop place with departures from now on, today', async () => {
    const before = Date.now()
    for (const stop_place_id of ['NSR:StopPlace:337', 'NSR:StopPlace:58366', 'NSR:StopPlace:90101']) {
      const { status, json } = await gateway().call('entur', 'get_departures', { stop_place_id })
      expect(status, stop_place_id).toBe(200)
      expect(json.data.id).toBe(stop_place_id)
      expect(json.data.estimatedCalls.length).toBeGreaterThan(0)
      const first = Date.parse(json.data.estimatedCalls[0].aimedDepartureTime)
      expect(first).toBeGreaterThanOrEqual(before)
      expect(first - before).toBeLessThan(3 * 60_000)
      expect(json.data.estimatedCalls[0].date).toBe(osloDate(first))
    }
  })

  it('find_stops_nearby answers stops around Oslo with the default radius', async () => {
    const { status, json } = await gateway().call('entur', 'find_stops_nearby', oslo)
    expect(status).toBe(200)
    expect(json.data.length).toBeGreaterThan(0)
  })

  it('find_live_vehicles_nearby answers vehicles reported in the last minute around Oslo, train ids of today', async () => {
    for (const query of [
      oslo,
      { lat: 59.911, lon: 10.75, radius_km: 1, mode: 'BUS' },
      { lat: 60.391, lon: 5.327, radius_km: 2 },
    ]) {
      const { status, json } = await gateway().call('entur', 'find_live_vehicles_nearby', query)
      expect(status, JSON.stringify(query)).toBe(200)
      expect(json.data.vehicles.length, JSON.stringify(query)).toBeGreaterThan(0)
      for (const vehicle of json.data.vehicles) {
        const age = Date.now() - Date.parse(vehicle.last_updated)
        expect(age).toBeGreaterThanOrEqual(0)
        expect(age).toBeLessThan(60_000)
      }
    }
    const { json } = await gateway().call('entur', 'find_live_vehicles_nearby', { ...oslo, mode: 'RAIL' })
    expect(json.data.vehicles[0].vehicle_id).toBe(`1137-${osloDate()}`)
  })

  it('find_shared_mobility_nearby answers vehicles and stations around Oslo with the default radius, and for the documented examples', async () => {
    for (const query of [
      oslo,
      { ...oslo, radius_m: 500, form_factor: 'SCOOTER_STANDING' },
      { lat: 63.431, lon: 10.396, radius_m: 1000 },
    ]) {
      const { status, json } = await gateway().call('entur', 'find_shared_mobility_nearby', query)
      expect(status, JSON.stringify(query)).toBe(200)
      expect(json.data.vehicles.length, JSON.stringify(query)).toBeGreaterThan(0)
    }
    const { json } = await gateway().call('entur', 'find_shared_mobility_nearby', oslo)
    expect(json.data.stations.length).toBeGreaterThan(0)
  })

  it("fills the transport section of Oslo's place bundle", async () => {
    const { status, json } = await gateway().get('/api/v1/steder/59.91/10.75', { section: 'transport' })
    expect(status).toBe(200)
    expect(json.fields.stops).toMatchObject({ status: 'ok' })
    expect(json.fields.stops.data.length).toBeGreaterThan(0)
    expect(json.fields.shared_mobility).toMatchObject({ status: 'ok' })
    expect(json.fields.shared_mobility.data.vehicles.length).toBeGreaterThan(0)
  })
})
