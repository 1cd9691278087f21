import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type FakeUpstream, type TestGateway } from '@allmenning/core/testing'
import { createRequestBudget } from '../shared/request-budget.js'
import { startFakeKommuneinfo } from '../shared/testing/fake-kommuneinfo.js'
import { anleggsregisteret } from './index.js'
import { startFakeAnleggsregisteret } from './testing/fake-anleggsregisteret.js'

let fake: FakeUpstream
let kommuneinfo: FakeUpstream
let gateway: TestGateway
type Row = {
  id: number
  name: string | null
  lat: number | null
  lon: number | null
  status: string | null
  distance_km?: number
}

beforeAll(async () => {
  ;[fake, kommuneinfo] = await Promise.all([startFakeAnleggsregisteret(), startFakeKommuneinfo()])
  gateway = createTestGateway({
    sources: anleggsregisteret({ requestBudget: createRequestBudget({ requests: 1000, perMs: 1000, maxWaitMs: 0 }) }),
    upstreams: { anleggsregisteret: fake, kartverket_kommuneinfo: kommuneinfo },
  })
})
afterAll(() => Promise.all([fake.close(), kommuneinfo.close()]))
afterEach(() => expect(gateway.errors).toEqual([]))

describe('find_facilities_nearby', () => {
  it('answers the placed facilities within the radius, nearest first, each with its distance', async () => {
    const { status, json } = await gateway.call('anleggsregisteret', 'find_facilities_nearby', {
      lat: 59.912,
      lon: 10.78,
      radius_km: 2,
    })
    expect(status).toBe(200)
    const rows = json.data.facilities as Row[]
    expect(rows[0]).toMatchObject({ id: 1001, name: 'Jordal Amfi', lat: 59.91204, lon: 10.78462 })
    expect(rows.length).toBeGreaterThan(1)
    expect(rows.every((row) => row.lat !== null && row.distance_km! <= 2)).toBe(true)
    expect(rows.map((row) => row.distance_km)).toEqual([...rows.map((row) => row.distance_km!)].sort((a, b) => a - b))
    expect(json.data).toMatchObject({ count: rows.length, radius_km: 2 })
    // Bærum's and Bergen's are farther away; a withheld position is never placed.
    expect(rows.map((row) => row.id).filter((id) => id >= 2000 || id === 1011 || id === 1012)).toEqual([])
  })

  it('narrows by status, and gives nothing where no facility is', async () => {
    const planned = await gateway.call('anleggsregisteret', 'find_facilities_nearby', {
      lat: 59.934,
      lon: 10.763,
      radius_km: 1,
      status: 'planned',
    })
    expect((planned.json.data.facilities as Row[]).map((row) => row.id)).toEqual([1015])
    const sea = await gateway.call('anleggsregisteret', 'find_facilities_nearby', { lat: 58.5, lon: 3.0 })
    expect(sea.json.data).toMatchObject({ facilities: [], count: 0, radius_km: 2 })
  })

  it('refuses a point outside the world and a radius over its maximum, naming the parameter', async () => {
    expect(
      (await gateway.call('anleggsregisteret', 'find_facilities_nearby', { lat: 91, lon: 10 })).json.error.message,
    ).toContain('lat')
    expect(
      (await gateway.call('anleggsregisteret', 'find_facilities_nearby', { lat: 59.9, lon: 10.7, radius_km: 50 }))
        .status,
    ).toBe(400)
  })
})

describe('search_facilities and get_facility', () => {
  it('finds facilities by any part of their name, best match first, Norwegian letters folded', async () => {
    const { json } = await gateway.call('anleggsregisteret', 'search_facilities', { query: 'voldslokka' })
    expect((json.data.facilities as Row[]).map((row) => row.id)).toEqual([1005, 1015])
    const exact = await gateway.call('anleggsregisteret', 'search_facilities', { query: 'Jordal Amfi' })
    expect(exact.json.data.facilities[0]).toMatchObject({ id: 1001 })
    expect((await gateway.call('anleggsregisteret', 'search_facilities', { query: 'x' })).json.error.message).toContain(
      'query',
    )
  })

  it('answers one facility by its number, and 404 for a number the register lacks', async () => {
    expect((await gateway.call('anleggsregisteret', 'get_facility', { id: '1002' })).json.data).toMatchObject({
      id: 1002,
      name: 'Tøyenbadet',
    })
    const missing = await gateway.call('anleggsregisteret', 'get_facility', { id: '999999' })
    expect([missing.status, missing.json.error.code]).toEqual([404, 'entity_not_found'])
    expect((await gateway.call('anleggsregisteret', 'get_facility', { id: 'abc' })).status).toBe(400)
  })

  it('lets the cross-source search find a facility, linked to get_facility, with its place', async () => {
    const { json } = await gateway.get('/api/v1/sok/alle', { q: 'Tøyenbadet', mode: 'entities' })
    const hit = json.results.find((result: { type: string }) => result.type === 'facility')
    expect(hit).toMatchObject({ id: '1002', name: 'Tøyenbadet', source: 'anleggsregisteret' })
    expect(hit._links.api).toBe('/api/v1/kilder/anleggsregisteret/get_facility?id=1002')
    const placed = await gateway.get('/api/v1/steder/sok', { q: 'Tøyenbadet' })
    expect(placed.json.results[0]).toMatchObject({
      type: 'facility',
      lat: 59.91978,
      lon: 10.77201,
      _links: { place: '/api/v1/steder/59.91978/10.77201' },
    })
  })
})
