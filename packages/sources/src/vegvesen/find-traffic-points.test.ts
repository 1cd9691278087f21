import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway } from '@allmenning/core/testing'
import { vegvesen } from './index.js'
import { startFakeTrafikkdata, type FakeTrafikkdata } from './testing/fake-trafikkdata.js'

let trafikkdata: FakeTrafikkdata

beforeAll(async () => {
  trafikkdata = await startFakeTrafikkdata()
})
afterAll(() => trafikkdata.close())

const gatewayFor = () => createTestGateway({ sources: vegvesen(), upstreams: { vegvesen_trafikkdata: trafikkdata } })
const ids = (rows: { id: string }[]) => rows.map((r) => r.id)
const osloByName = ['10240V1120004', '10234V1110001', '10234B1110003', '10234V1110002', '10240V1120005']

describe('find_traffic_points', () => {
  it("answers a county's points as a bare list, by name, in the row shape the public gateway's clients read", async () => {
    const gateway = gatewayFor()
    const { status, json } = await gateway.call('vegvesen', 'find_traffic_points', { county_number: 3, limit: 100 })
    expect(status).toBe(200)
    expect(Array.isArray(json.data)).toBe(true)
    expect(ids(json.data)).toEqual(osloByName)
    expect(json.data[1]).toEqual({
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
      coordinates: { lat: 59.9102, lon: 10.7515 },
      operational_status: 'OPERATIONAL',
      registration_frequency: 'CONTINUOUS',
      first_data: '2014-03-01T00:00:00+01:00',
      latest_hour: '2026-11-25T06:00:00+01:00',
      latest_hourly_data: '2026-11-25T06:00:00+01:00',
    })
    expect(json.entities[0]).toMatchObject({
      type: 'traffic_registration_point',
      id: '10240V1120004',
      name: 'Fjellvegen tunnel',
    })
    // The county as OsloLive sends it, with its leading zero, is the same county.
    const padded = await gateway.get('/api/v1/kilder/vegvesen/find_traffic_points', {
      county_number: '03',
      limit: '100',
    })
    expect(ids(padded.json.data)).toEqual(osloByName)
    expect(gateway.errors).toEqual([])
  })

  it('keeps only points in operation when operational_only is true or yes', async () => {
    const gateway = gatewayFor()
    for (const flag of ['true', 'yes']) {
      const { json } = await gateway.get('/api/v1/kilder/vegvesen/find_traffic_points', {
        county_number: '3',
        operational_only: flag,
      })
      expect(ids(json.data), flag).toEqual(['10234V1110001', '10234B1110003', '10234V1110002'])
    }
    const all = await gateway.get('/api/v1/kilder/vegvesen/find_traffic_points', {
      county_number: '3',
      operational_only: 'no',
    })
    expect(ids(all.json.data)).toEqual(osloByName)
    const bad = await gateway.get('/api/v1/kilder/vegvesen/find_traffic_points', {
      county_number: '3',
      operational_only: 'maybe',
    })
    expect([bad.status, bad.json.error.details[0].parameter]).toEqual([400, 'operational_only'])
  })

  it('finds the points around a point, nearest first with distance_km, as the Bergen client asks', async () => {
    const gateway = gatewayFor()
    const { status, json } = await gateway.call('vegvesen', 'find_traffic_points', {
      lat: 60.392,
      lon: 5.324,
      radius_km: 5,
      operational_only: true,
      limit: 100,
    })
    expect(status).toBe(200)
    expect(json.data.map((p: { id: string; distance_km: number }) => [p.id, p.distance_km])).toEqual([
      ['46210V2220006', 0.055],
      ['46210V2220008', 0.396],
      ['46210V2220007', 0.886],
    ])
    expect(json.data[0]).toMatchObject({
      coordinates: { lat: 60.392, lon: 5.325 },
      latest_hourly_data: '2026-11-25T06:00:00+01:00',
      county_number: 46,
      municipality: 'Bergen',
    })
    // A county and a point together: both apply.
    const both = await gateway.call('vegvesen', 'find_traffic_points', {
      county_number: 3,
      lat: 60.392,
      lon: 5.324,
      radius_km: 5,
    })
    expect(both.json.data).toEqual([])
  })

  it('leaves out points without a position, so that every row is on a map', async () => {
    const { status, json } = await gatewayFor().call('vegvesen', 'find_traffic_points', { county_number: 50 })
    expect([status, json.data]).toEqual([200, []])
  })

  it('refuses a call with neither a county nor a point, naming the parameters, without asking Vegvesen', async () => {
    const gateway = gatewayFor()
    const before = trafikkdata.questions.length
    const none = await gateway.call('vegvesen', 'find_traffic_points', { operational_only: true })
    expect(none.status).toBe(400)
    expect(none.json.error.code).toBe('invalid_parameter')
    expect(none.json.error.details.map((d: { parameter: string }) => d.parameter)).toEqual([
      'county_number',
      'lat',
      'lon',
    ])
    expect(none.json.error.message).toMatch(/county_number, lat, lon is required unless lat and lon are given/)
    const half = await gateway.call('vegvesen', 'find_traffic_points', { lat: 59.91 })
    expect([half.status, half.json.error.details]).toEqual([
      400,
      [{ parameter: 'lon', problem: 'is required with lat', rule: 'required' }],
    ])
    const named = await gateway.call('vegvesen', 'find_traffic_points', { county_number: 'Oslo' })
    expect([named.status, named.json.error.details[0].parameter]).toEqual([400, 'county_number'])
    expect(trafikkdata.questions.length).toBe(before)
  })
})
