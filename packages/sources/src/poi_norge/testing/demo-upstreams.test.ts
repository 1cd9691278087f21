import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type DemoUpstreams, type TestGateway } from '@allmenning/core/testing'
import { poiNorge } from '../index.js'
import { POI_CATEGORIES } from '../poi-categories.js'
import { startDemoUpstreams } from './demo-upstreams.js'

let demo: DemoUpstreams
let gateway: TestGateway

beforeAll(async () => {
  demo = await startDemoUpstreams()
  gateway = createTestGateway({ sources: poiNorge(), upstreams: demo.fakes })
})
afterAll(() => demo.close())

describe('the offline demo of poi_norge', () => {
  it('plays every upstream of the source', () => {
    expect(Object.keys(demo.fakes).sort()).toEqual(
      poiNorge()
        .upstreams.map((u) => u.id)
        .sort(),
    )
  })

  it.each([
    ['a point in Oslo, with the default radius', { lat: 59.91, lon: 10.75 }],
    ['the documented example', { lat: 59.911, lon: 10.745, radius_km: 2, category: 'bicycle_parking' }],
  ])('search_poi answers %s with POIs', async (_what, query) => {
    const { status, json } = await gateway.call('poi_norge', 'search_poi', query)
    expect(status).toBe(200)
    expect(json.data.items.length).toBeGreaterThan(0)
    expect(json.data.items[0]).toMatchObject({
      id: expect.any(Number),
      lat: expect.any(Number),
      lon: expect.any(Number),
    })
  })

  it('finds something in Oslo for every category list_categories lists, the clients’ six included', async () => {
    const { status, json } = await gateway.call('poi_norge', 'list_categories')
    expect(status).toBe(200)
    const keys = json.data.categories.map((c: { key: string }) => c.key)
    expect(keys).toHaveLength(POI_CATEGORIES.length)
    expect(keys).toEqual(expect.arrayContaining(['restaurant', 'cafe', 'fast_food', 'bar', 'pub', 'bicycle_parking']))
    for (const category of keys) {
      const found = await gateway.call('poi_norge', 'search_poi', { lat: 59.91, lon: 10.75, category, limit: 100 })
      expect(found.status, category).toBe(200)
      expect(
        found.json.data.items.map((i: { category: string }) => i.category),
        category,
      ).toContain(category)
    }
    expect(gateway.errors).toEqual([])
  })
})
