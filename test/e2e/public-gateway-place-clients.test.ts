import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../examples/express-server/src/app.js'
import { FAKE_BARENTSWATCH_CLIENT, startFakeBarentswatch, type FakeBarentswatch } from '@allmenning/sources/ais/testing'
import { startFakeKystdatahuset } from '@allmenning/sources/kystdatahuset/testing'
import { FAKE_NOBIL_KEY, startFakeNobil } from '@allmenning/sources/nobil/testing'
import { startFakeOverpass } from '@allmenning/sources/poi_norge/testing'
import type { FakeUpstream } from '@allmenning/core/testing'

// Map layers and agents written against the public gateway (live-gateway.md) read ships,
// quays, chargers and POIs. Served with MOUNT_PATH=/wiki and keys from the environment, the
// example server must answer their exact requests with the fields they read.

let kystdatahuset: FakeUpstream
let nobil: FakeUpstream
let overpass: FakeUpstream
let bw: FakeBarentswatch
let server: Server
let host: string

beforeAll(async () => {
  ;[kystdatahuset, nobil, overpass, bw] = await Promise.all([
    startFakeKystdatahuset(),
    startFakeNobil(),
    startFakeOverpass(),
    startFakeBarentswatch(),
  ])
  const env = {
    MOUNT_PATH: '/wiki',
    ALLMENNING_UPSTREAM_KYSTDATAHUSET: kystdatahuset.baseUrl,
    ALLMENNING_UPSTREAM_NOBIL: nobil.baseUrl,
    ALLMENNING_UPSTREAM_OVERPASS: overpass.baseUrl,
    ALLMENNING_UPSTREAM_BARENTSWATCH_ID: bw.id.baseUrl,
    ALLMENNING_UPSTREAM_BARENTSWATCH_AIS: bw.ais.baseUrl,
    ALLMENNING_NOBIL_API_KEY: FAKE_NOBIL_KEY,
    ALLMENNING_BARENTSWATCH_CLIENT_ID: FAKE_BARENTSWATCH_CLIENT.clientId,
    ALLMENNING_BARENTSWATCH_CLIENT_SECRET: FAKE_BARENTSWATCH_CLIENT.clientSecret,
  }
  server = createServer(createApp(env, { onError: () => {} }))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()))
  await Promise.all([kystdatahuset.close(), nobil.close(), overpass.close(), bw.close()])
})

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function getJson(path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${host}${path}`)
  return { status: res.status, body: await res.json() }
}

const oslo = { lat: '59.9139', lon: '10.7522' }

describe('a ship layer written against the public gateway', () => {
  it('sends lat, lon, radius_km and limit=100 and reads data.fartoy', async () => {
    const query = new URLSearchParams({ lat: '60.39', lon: '5.32', radius_km: '12', limit: '100' })
    const { status, body } = await getJson(`/wiki/api/v1/kilder/ais/find_vessels_nearby?${query}`)
    expect(status).toBe(200)
    expect(Array.isArray(body.data?.fartoy)).toBe(true)
    expect(body._meta.pagination.has_more_results).toBe(false)
    for (const v of body.data.fartoy) {
      expect(typeof v.vessel_id).toBe('number')
      expect(typeof v.lat).toBe('number')
      expect(typeof v.lon).toBe('number')
      expect(Number.isFinite(Number(v.skipstype))).toBe(true)
      expect(v).toHaveProperty('navn')
    }
    expect(body.data.fartoy.map((v: { navn: string }) => v.navn)).toEqual(['FJORDKRYSS', 'HAVILLE'])
    expect(body.data.radius_km).toBe(12)
  })
})

describe('a quay layer written against the public gateway', () => {
  it('reads data.havner with port_id, navn, type, lat and lon', async () => {
    const query = new URLSearchParams({ ...oslo, radius_km: '20', limit: '100' })
    const { status, body } = await getJson(`/wiki/api/v1/kilder/kystdatahuset/find_ports_nearby?${query}`)
    expect(status).toBe(200)
    const rows = body.data.havner as { port_id: number; navn: string | null; type: string; lat: number; lon: number }[]
    expect(rows.length).toBe(10)
    // The layer keys points on port_id, since kode (the LOCODE) repeats across quays.
    expect(new Set(rows.map((r) => r.port_id)).size).toBe(rows.length)
    expect(rows.every((r) => typeof r.lat === 'number' && typeof r.lon === 'number' && r.type.length > 0)).toBe(true)
    expect(rows.find((r) => r.navn === 'Salt brygge FK')?.type).toBe('Ferjekai')
  })
})

describe('a charger layer written against the public gateway', () => {
  it('reads a bare list whose rows have a string id, lat, lon, name and charging_points', async () => {
    const query = new URLSearchParams({ ...oslo, radius_km: '15', limit: '100' })
    const { status, body } = await getJson(`/wiki/api/v1/kilder/nobil/find_charging_stations?${query}`)
    expect(status).toBe(200)
    expect(Array.isArray(body.data)).toBe(true)
    expect(body.data.length).toBeGreaterThan(0)
    for (const row of body.data) {
      expect(typeof row.id).toBe('string')
      expect(row.id.length).toBeGreaterThan(0)
      expect(typeof row.lat).toBe('number')
      expect(typeof row.lon).toBe('number')
      expect(typeof row.name).toBe('string')
    }
    expect(body.data[0]).toMatchObject({ id: 'NOR_01001', charging_points: 4 })
  })
})

describe('a bicycle-parking layer written against the public gateway', () => {
  it('asks search_poi by category with limit=200 and reads data.items', async () => {
    const query = new URLSearchParams({ ...oslo, radius_km: '2', category: 'bicycle_parking', limit: '200' })
    const { status, body } = await getJson(`/wiki/api/v1/kilder/poi_norge/search_poi?${query}`)
    expect(status).toBe(200)
    expect(body.data).toMatchObject({
      matched: 2,
      offset: 0,
      count: 2,
      limit: 200,
      returned: 2,
      has_more_results: false,
      truncated: false,
    })
    for (const item of body.data.items) {
      expect(['number', 'string']).toContain(typeof item.id)
      expect(typeof item.lat).toBe('number')
      expect(typeof item.lon).toBe('number')
      expect(item).toMatchObject({ type: 'amenity', category: 'bicycle_parking', name: null })
      expect(typeof item.distance_km).toBe('number')
    }
  })
})
