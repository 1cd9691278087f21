import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type DemoUpstreams, type TestGateway } from '@allmenning/core/testing'
import { naturbase } from '../index.js'
import { startDemoUpstreams } from './demo-upstreams.js'

let demo: DemoUpstreams
let gateway: TestGateway

beforeAll(async () => {
  demo = await startDemoUpstreams()
  const source = naturbase()
  // Every upstream of the source is played: the demo maps each id the source declares.
  expect(Object.keys(demo.fakes).sort()).toEqual(source.upstreams.map((u) => u.id).sort())
  gateway = createTestGateway({ sources: source, upstreams: demo.fakes })
})
afterAll(() => demo.close())

describe('the naturbase demo upstreams', () => {
  it('answer a point in Oslo with the default radius, directly and in the place bundle', async () => {
    const { status, json } = await gateway.call('naturbase', 'find_protected_areas', { lat: 59.91, lon: 10.75 })
    expect(status).toBe(200)
    expect(json.data.protected_areas.length).toBeGreaterThan(2)
    for (const area of json.data.protected_areas) {
      expect(typeof area.lat).toBe('number')
      expect(area.geometry.type).toMatch(/Polygon$/)
    }
    const place = await gateway.get('/api/v1/steder/59.91/10.75', { fields: 'protected_areas' })
    expect(place.status).toBe(200)
    const field = place.json.fields.protected_areas
    expect(field).toMatchObject({ status: 'ok', source: 'naturbase', operation: 'find_protected_areas' })
    expect(field.data.protected_areas.length).toBeGreaterThan(0)
  })

  it('answer the documented example near Østensjøvannet, filtered to nature reserves', async () => {
    const { status, json } = await gateway.call('naturbase', 'find_protected_areas', {
      lat: 59.8859,
      lon: 10.8247,
      radius_km: 3,
      verneform: 'naturreservat',
    })
    expect(status).toBe(200)
    // The point is on the open water the fixture leaves out of the reserve: a hole, a few hundred metres from its edge.
    expect(json.data.protected_areas[0].id).toBe('VV00000972')
    expect(json.data.protected_areas[0].distance_km).toBeLessThan(0.5)
  })

  it('answer any plausible id, and a search by name', async () => {
    const known = await gateway.call('naturbase', 'get_protected_area', { id: 'VV00000972' })
    expect(known.status).toBe(200)
    expect(known.json.data.official_name).toBe('Østensjøvannet naturreservat')
    const other = await gateway.call('naturbase', 'get_protected_area', { id: 'VV00001111' })
    expect(other.status).toBe(200)
    expect(other.json.data.id).toBe('VV00001111')
    const search = await gateway.call('naturbase', 'search_protected_areas', { query: 'Østensjøvannet' })
    expect(search.json.data.protected_areas.length).toBeGreaterThan(0)
  })

  it('leave nothing unexpected in the gateway', () => {
    expect(gateway.errors).toEqual([])
  })
})
