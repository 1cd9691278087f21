import * as v from 'valibot'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createGateway, type Gateway } from '@allmenning/core'
import { distanceKm } from '../shared/wgs84-point.js'
import type { FakeUpstream } from '@allmenning/core/testing'
import { createFindPortsNearby } from './find-ports-nearby.js'
import { kystdatahuset } from './index.js'
import { createLocationRegister } from './location-register.js'
import {
  kystdatahusetJson,
  kystdatahusetPaths,
  locationRegisterFixture,
  startFakeKystdatahuset,
} from './testing/fake-kystdatahuset.js'

let fake: FakeUpstream
let gateway: Gateway

const gatewayFor = (timeoutMs = 1000) =>
  createGateway({
    sources: [kystdatahuset()],
    upstreams: { kystdatahuset: { baseUrl: fake.baseUrl, timeoutMs } },
    onError: () => {},
  })
const call = async (g: Gateway, query: string) => {
  const res = await g.handle({
    method: 'GET',
    path: '/api/v1/kilder/kystdatahuset/find_ports_nearby',
    query,
    headers: {},
  })
  return { ...res, json: JSON.parse(res.body ?? 'null') }
}
const oslo = 'lat=59.9065&lon=10.7470' // the cell 59.907, 10.747
const output = createFindPortsNearby(createLocationRegister()).output

beforeAll(async () => {
  fake = await startFakeKystdatahuset()
  gateway = gatewayFor()
})
afterAll(() => fake.close())

describe('find_ports_nearby', () => {
  it('answers the ports within the radius, nearest first, in the public gateway’s row fields', async () => {
    const { status, json } = await call(gateway, `${oslo}&radius_km=3&limit=100`)
    expect(status).toBe(200)
    expect(v.is(output, json.data)).toBe(true)
    expect(json.data.radius_km).toBe(3)
    expect(json.data.has_more_results).toBe(false)
    expect(json.data.havner[0]).toEqual({
      port_id: 2467069,
      navn: 'Salt brygge FK',
      kode: 'NOOSL',
      type: 'Ferjekai',
      system_type: 'FERRY_QUAY',
      lat: 59.906647,
      lon: 10.747188,
      avstand_km: 0.041,
    })
    const distances = json.data.havner.map((p: { avstand_km: number }) => p.avstand_km)
    expect(distances).toEqual([...distances].sort((a, b) => a - b))
    expect(Math.max(...distances)).toBeLessThanOrEqual(3)
    // Nesodden (about 6 km away) and Drammen are outside; (0, 0) and geometry-less features never appear.
    const names = json.data.havner.map((p: { navn: string | null }) => p.navn)
    expect(names).not.toContain('Nesoddtangen brygge')
    expect(names).not.toContain('Ukjent kai')
    expect(names).not.toContain('Uten geometri')
    expect(names).toContain(null)
    // Distances are measured from the point's cell, which the parameters echo.
    expect(json.parameters).toMatchObject({ lat: 59.907, lon: 10.747 })
    expect(
      json.data.havner.every(
        (p: { lat: number; lon: number; avstand_km: number }) =>
          Math.abs(distanceKm(json.parameters, p) - p.avstand_km) < 0.001,
      ),
    ).toBe(true)
  })

  it('credits Kystverket and says which list the answer was filtered from', async () => {
    const { json } = await call(gateway, oslo)
    expect(json._provenance.data.source_api).toBe(`${fake.baseUrl}${kystdatahusetPaths.locations}`)
    expect(json._provenance.upstreams[0]).toMatchObject({
      id: 'kystdatahuset',
      publisher: 'Kystverket (Norwegian Coastal Administration)',
      license: 'NLOD 2.0',
    })
    expect(json._raw_values).toMatchObject({ register_locations: 23, register_locations_without_position: 3 })
  })

  it('filters by kind, case-insensitively', async () => {
    const { json } = await call(gateway, `${oslo}&radius_km=20&type=ferry_quay`)
    expect(json.parameters.type).toBe('FERRY_QUAY')
    expect(json.data.havner.map((p: { navn: string }) => p.navn)).toEqual(['Salt brygge FK', 'Nesoddtangen brygge'])
  })

  it('pages the list with limit and offset and says so inside data', async () => {
    const first = await call(gateway, `${oslo}&radius_km=5&limit=3`)
    expect(first.json.data.havner).toHaveLength(3)
    expect(first.json.data.has_more_results).toBe(true)
    expect(first.json._meta.pagination).toMatchObject({ limit: 3, offset: 0, returned: 3, has_more_results: true })
    const rest = await call(gateway, `${oslo}&radius_km=5&limit=3&offset=3`)
    expect(rest.json.data.havner[0].port_id).not.toBe(first.json.data.havner[2].port_id)
  })

  it('fetches the register once for many different questions', async () => {
    const local = gatewayFor()
    const before = fake.requests.length
    await Promise.all([
      call(local, oslo),
      call(local, 'lat=60.39&lon=5.32'),
      call(local, 'lat=63.43&lon=10.39&radius_km=50'),
    ])
    await call(local, 'lat=69.65&lon=18.96')
    expect(fake.requests.length - before).toBe(1)
  })

  it('rejects coordinates out of range with a 400 naming the bound', async () => {
    const { status, json } = await call(gateway, 'lat=95&lon=10')
    expect(status).toBe(400)
    expect(json.error.details).toEqual([{ parameter: 'lat', problem: 'must be at most 90', rule: 'max_value' }])
    const lon = await call(gateway, 'lat=59&lon=-181')
    expect(lon.json.error.details).toEqual([{ parameter: 'lon', problem: 'must be at least -180', rule: 'min_value' }])
    const missing = await call(gateway, 'lat=59')
    expect(missing.json.error.details).toEqual([{ parameter: 'lon', problem: 'is required', rule: 'required' }])
  })
})

describe('an empty location register', () => {
  const empty = () => kystdatahusetJson('{"type":"FeatureCollection","features":[]}')
  const recorded = () => kystdatahusetJson(locationRegisterFixture)
  const realNow = Date.now
  afterEach(() => {
    Date.now = realNow
    fake.route(kystdatahusetPaths.locations, recorded)
  })

  it('is a 502 naming Kystdatahuset, not "no ports", and is asked for again a minute later', async () => {
    fake.route(kystdatahusetPaths.locations, empty)
    const g = gatewayFor()
    const first = await call(g, oslo)
    expect(first.status).toBe(502)
    expect(first.headers['cache-control']).toBe('no-store')
    expect(first.json.error.message).toMatch(
      /^Upstream Kystverket Kystdatahuset \(kystdatahuset\) sent an implausible location register \(0 items/,
    )
    fake.route(kystdatahusetPaths.locations, recorded)
    expect((await call(g, oslo)).status).toBe(502)
    const later = realNow() + 60_000
    Date.now = () => later
    const again = await call(g, oslo)
    expect(again.status).toBe(200)
    expect(again.json.data.havner.length).toBeGreaterThan(0)
  })

  it('does not replace the last good register', async () => {
    const g = gatewayFor()
    const before = fake.requests.length
    const first = await call(g, oslo)
    fake.route(kystdatahusetPaths.locations, empty)
    const nextDay = realNow() + 86_400_000 + 1000
    Date.now = () => nextDay
    const after = await call(g, oslo)
    expect(after.status).toBe(200)
    expect(after.json.data.havner).toEqual(first.json.data.havner)
    await vi.waitFor(() => expect(fake.requests.length - before).toBe(2))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect((await call(g, 'lat=59.9&lon=10.74')).json.data.havner.length).toBeGreaterThan(0)
  })
})

describe('when Kystdatahuset fails', () => {
  afterAll(() =>
    fake.route(kystdatahusetPaths.locations, () =>
      kystdatahusetJson(Buffer.from('{"type":"FeatureCollection","features":[]}')),
    ),
  )

  it.each([
    ['an error status', { status: 503, body: 'Service Unavailable' }, 'upstream_error', /answered HTTP 503/],
    [
      'its JSON envelope instead of GeoJSON',
      {
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: '{"success":false,"msg":"The operation has timed out.","data":null}',
      },
      'upstream_invalid_response',
      /unexpected shape/,
    ],
    [
      'an HTML page',
      {
        status: 200,
        headers: { 'content-type': 'text/html' },
        body: '<!DOCTYPE html><html><body>Vedlikehold</body></html>',
      },
      'upstream_invalid_response',
      /not valid JSON/,
    ],
    [
      'no answer in time (it hangs)',
      { status: 200, delayMs: 2000, headers: { 'content-type': 'application/json' }, body: '{}' },
      'upstream_timeout',
      /did not answer within 300 ms/,
    ],
  ])('answers %s with a 502 naming Kystdatahuset', async (_name, reply, code, message) => {
    fake.route(kystdatahusetPaths.locations, () => reply)
    const started = Date.now()
    const { status, json, body } = await call(gatewayFor(300), oslo)
    expect(status).toBe(502)
    expect(json.error).toMatchObject({ status: 502, code, upstream: 'kystdatahuset' })
    expect(json.error.message).toMatch(/^Upstream Kystverket Kystdatahuset \(kystdatahuset\) /)
    expect(json.error.message).toMatch(message)
    expect(body).not.toMatch(/\.ts:\d+/)
    expect(Date.now() - started).toBeLessThan(1500)
  })
})
