import * as v from 'valibot'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, type Gateway } from '@allmenning/core'
import type { FakeUpstream } from '@allmenning/core/testing'
import { poiNorge } from './index.js'
import { listCategories } from './list-categories.js'
import { POI_CATEGORIES, resolveTag } from './poi-categories.js'
import { overpassQuery, POI_TYPES } from './poi-query.js'
import { createSearchPoi } from './search-poi.js'
import { overpassAnswer, overpassHtmlError, serveOverpass, startFakeOverpass } from './testing/fake-overpass.js'

let fake: FakeUpstream

const gatewayFor = (timeoutMs = 1000) =>
  createGateway({
    sources: [poiNorge()],
    upstreams: { overpass: { baseUrl: fake.baseUrl, timeoutMs } },
    onError: () => {},
  })
const call = async (g: Gateway, query: string) => {
  const res = await g.handle({ method: 'GET', path: '/api/v1/kilder/poi_norge/search_poi', query, headers: {} })
  return { ...res, json: JSON.parse(res.body ?? 'null') }
}
const sentrum = 'lat=59.911&lon=10.745'
const asked = (from: number) => fake.requests.slice(from).map((r) => new URL(r, 'http://x').searchParams.get('data'))

beforeAll(async () => {
  fake = await startFakeOverpass()
})
afterAll(() => fake.close())
afterEach(() => fake.route('/interpreter', serveOverpass))

describe('search_poi', () => {
  it('answers the public gateway’s shape: named POIs nearest first, with paging fields inside data', async () => {
    const before = fake.requests.length
    const { status, json } = await call(gatewayFor(), `${sentrum}&radius_km=2&limit=3`)
    expect(status).toBe(200)
    expect(v.is(createSearchPoi().output, json.data)).toBe(true)
    expect(asked(before)).toEqual([
      '[out:json][timeout:20];nwr(around:2000,59.911,10.745)[~"^(amenity|shop|tourism|leisure|historic|office|craft|healthcare|emergency|sport|public_transport)$"~"."]["name"];out center qt 1000;',
    ])
    expect(json.data).toMatchObject({
      matched: 6,
      offset: 0,
      count: 3,
      limit: 3,
      returned: 3,
      has_more_results: true,
      truncated: false,
    })
    expect(json.data.items[0]).toEqual({
      id: 5315431323,
      osm_type: 'node',
      lat: 59.911,
      lon: 10.745,
      type: 'amenity',
      category: 'restaurant',
      name: 'Olivia',
      address: 'Bryggetorget 3, 0150 Oslo',
      opening_hours: 'Mo-Su 11:00-23:00',
      website: 'https://www.oliviarestauranter.no/',
      distance_km: 0,
    })
    // Benches and unnamed bicycle stands are not POIs unless asked for by category.
    const all = await call(gatewayFor(), `${sentrum}&radius_km=2&limit=200`)
    const names = all.json.data.items.map((i: { name: string }) => i.name)
    // 'Langt unna', 5 km off, is outside the circle.
    expect(names).toEqual(['Olivia', 'Fiskeriet', 'Baker Hansen', 'Kaffebrenneriet', 'Rådhusparken', 'Nasjonalmuseet'])
    expect(all.json._meta.pagination).toMatchObject({ returned: 6, has_more_results: false, total: 6 })
    // A way or relation is placed at its centre; a POI with several keys takes the first POI key.
    expect(all.json.data.items.find((i: { name: string }) => i.name === 'Nasjonalmuseet')).toMatchObject({
      osm_type: 'way',
      type: 'tourism',
      category: 'museum',
      website: 'https://www.nasjonalmuseet.no/',
    })
    expect(all.json.data.items.find((i: { name: string }) => i.name === 'Baker Hansen')).toMatchObject({
      type: 'amenity',
      category: 'cafe',
    })
    expect(all.json._provenance.upstreams[0]).toMatchObject({
      id: 'overpass',
      publisher: 'OpenStreetMap contributors',
      license: 'ODbL 1.0',
    })
    expect(all.json._raw_values).toMatchObject({ osm_data_as_of: '2026-09-23T09:40:12Z' })
  })

  it('finds unnamed POIs by category, as the bicycle-parking client asks', async () => {
    const { json } = await call(gatewayFor(), `lat=59.9139&lon=10.7522&radius_km=2&category=bicycle_parking&limit=200`)
    expect(
      json.data.items.map((i: { id: number; name: string | null; type: string; category: string }) => [
        i.id,
        i.name,
        i.type,
        i.category,
      ]),
    ).toEqual([
      [1003, null, 'amenity', 'bicycle_parking'],
      [1002, null, 'amenity', 'bicycle_parking'],
    ])
    const typed = await call(gatewayFor(), `${sentrum}&radius_km=1&type=shop&category=Bakery`)
    expect(typed.json.parameters).toMatchObject({ type: 'shop', category: 'bakery' })
    expect(typed.json.data.items.map((i: { name: string; type: string }) => [i.name, i.type])).toEqual([
      ['Baker Hansen', 'shop'],
    ])
  })

  it('says truncated and _meta.capped when Overpass answered its cap of 1000 elements, and neither below it', async () => {
    // 1000 cafés in a row eastwards from the point, about 1 m apart: all within the circle.
    const cafes = Array.from({ length: 1000 }, (_, i) => ({
      type: 'node',
      id: 9000 + i,
      lat: 59.911,
      lon: Math.round((10.745 + i * 0.00002) * 1e7) / 1e7,
      tags: { amenity: 'cafe', name: `Kafé ${i}` },
    }))
    fake.route('/interpreter', () => overpassAnswer(cafes))
    // A cell and filter no other test asks for, so the route above answers it rather than the memo.
    const near = await call(gatewayFor(), 'lat=59.911&lon=10.755&radius_km=3&category=cafe&limit=100')
    expect(near.status).toBe(200)
    expect(near.json.data).toMatchObject({ matched: 1000, count: 100, truncated: true, has_more_results: true })
    expect(near.json._meta.capped).toEqual({
      cap: 1000,
      requested_limit: 100,
      reason: expect.stringMatching(/at most 1000 elements/),
    })
    expect(near.json._meta.pagination).toMatchObject({
      returned: 100,
      has_more_results: true,
      next_offset: 100,
      total: 1000,
    })
    fake.route('/interpreter', serveOverpass)
    const few = await call(gatewayFor(), `${sentrum}&radius_km=2&limit=3`)
    expect(few.json.data.truncated).toBe(false)
    expect(few.json._meta.capped).toBeUndefined()
  })

  it('shares one Overpass query between points of one cell and between pages', async () => {
    const g = gatewayFor()
    const before = fake.requests.length
    const near = await call(g, 'lat=59.91104&lon=10.74496&radius_km=0.05')
    const nearer = await call(g, 'lat=59.91096&lon=10.74504&radius_km=0.05&limit=1')
    expect(fake.requests.length - before).toBe(1)
    expect(near.json.data.items.map((i: { name: string }) => i.name)).toEqual(['Olivia', 'Fiskeriet'])
    expect(nearer.json.data.items.map((i: { name: string }) => i.name)).toEqual(['Olivia'])
    expect(nearer.json.data.has_more_results).toBe(true)
  })

  it('never lets a parameter change the query', async () => {
    const { status, json } = await call(gatewayFor(), `${sentrum}&category=${encodeURIComponent('x"];out;node(1')}`)
    expect(status).toBe(400)
    expect(json.error.details[0]).toMatchObject({ parameter: 'category', rule: 'regex' })
    expect((await call(gatewayFor(), `${sentrum}&type=building`)).json.error.details[0]).toMatchObject({
      parameter: 'type',
      rule: 'enum',
    })
    expect((await call(gatewayFor(), `${sentrum}&limit=201`)).json.error.details).toEqual([
      { parameter: 'limit', problem: 'must be at most 200', rule: 'max_value' },
    ])
    expect(overpassQuery({ lat: 1, lon: 2, radiusM: 300, type: 'amenity', category: 'cafe' })).toBe(
      '[out:json][timeout:20];nwr(around:300,1,2)["amenity"="cafe"];out center qt 1000;',
    )
  })
})

describe('search_poi by category', () => {
  it('asks Overpass for exactly the tag a category known by name stands for', async () => {
    const before = fake.requests.length
    const { status, json } = await call(gatewayFor(), `${sentrum}&radius_km=1&category=fast_food`)
    expect(status).toBe(200)
    expect(asked(before)).toEqual([
      '[out:json][timeout:20];nwr(around:1000,59.911,10.745)["amenity"="fast_food"];out center qt 1000;',
    ])
    expect(json.parameters).toMatchObject({ category: 'fast_food' })
  })

  it('keeps a type the client asked for, and searches a value the table does not name under any POI key', async () => {
    const before = fake.requests.length
    await call(gatewayFor(), `${sentrum}&radius_km=1&type=amenity&category=bakery`)
    const bench = await call(gatewayFor(), `${sentrum}&radius_km=1&category=bench`)
    expect(asked(before)).toEqual([
      '[out:json][timeout:20];nwr(around:1000,59.911,10.745)["amenity"="bakery"];out center qt 1000;',
      '[out:json][timeout:20];nwr(around:1000,59.911,10.745)[~"^(amenity|shop|tourism|leisure|historic|office|craft|healthcare|emergency|sport|public_transport)$"~"^bench$"];out center qt 1000;',
    ])
    // The unnamed bench is found when asked for by value, as an amenity.
    expect(
      bench.json.data.items.map((i: { id: number; type: string; category: string }) => [i.id, i.type, i.category]),
    ).toEqual([[1006, 'amenity', 'bench']])
    expect(resolveTag('bench', undefined)).toEqual({ type: undefined, category: 'bench' })
    expect(resolveTag('bakery', undefined)).toEqual({ type: 'shop', category: 'bakery' })
    expect(resolveTag('bakery', 'shop')).toEqual({ type: 'shop', category: 'bakery' })
    expect(resolveTag(undefined, 'tourism')).toEqual({ type: 'tourism', category: undefined })
  })
})

describe('list_categories', () => {
  const list = async (query = '') => {
    const res = await gatewayFor().handle({
      method: 'GET',
      path: '/api/v1/kilder/poi_norge/list_categories',
      query,
      headers: {},
    })
    return { status: res.status, json: JSON.parse(res.body!) }
  }

  it('lists the categories search_poi knows by name, the clients’ six first, on one page, without asking Overpass', async () => {
    const before = fake.requests.length
    const { status, json } = await list()
    expect(status).toBe(200)
    expect(fake.requests.length).toBe(before)
    expect(v.is(listCategories.output, { ...json.data, has_more_results: undefined })).toBe(true)
    expect(json.data.count).toBe(POI_CATEGORIES.length)
    expect(json.data.has_more_results).toBe(false)
    expect(json.data.categories.map((c: { key: string }) => c.key).slice(0, 6)).toEqual([
      'restaurant',
      'cafe',
      'fast_food',
      'bar',
      'pub',
      'bicycle_parking',
    ])
    expect(json.data.categories[2]).toEqual({
      key: 'fast_food',
      name_no: 'Gatekjøkken',
      name_en: 'Fast food',
      type: 'amenity',
      osm_tags: ['amenity=fast_food'],
    })
    expect(json.data.categories.find((c: { key: string }) => c.key === 'defibrillator')).toMatchObject({
      type: 'emergency',
      osm_tags: ['emergency=defibrillator'],
    })
    expect(json.data.types).toEqual([...POI_TYPES])
    expect(json._meta.pagination).toMatchObject({
      limit: 100,
      offset: 0,
      returned: POI_CATEGORIES.length,
      has_more_results: false,
    })
  })

  it('pages the list with limit and offset', async () => {
    const { json } = await list('limit=2&offset=4')
    expect(json.data.categories.map((c: { key: string }) => c.key)).toEqual(['pub', 'bicycle_parking'])
    expect(json.data.has_more_results).toBe(true)
  })

  it('is the very table search_poi searches by: each key once, each tag what search_poi asks Overpass for', () => {
    const keys = POI_CATEGORIES.map((c) => c.key)
    expect(new Set(keys).size).toBe(keys.length)
    for (const c of POI_CATEGORIES) {
      expect(c.key).toMatch(/^[a-z0-9_]{1,64}$/)
      expect(POI_TYPES).toContain(c.type)
      expect(resolveTag(c.key, undefined)).toEqual({ type: c.type, category: c.value })
    }
  })
})

describe('when Overpass fails', () => {
  it.each([
    [
      'a runtime error inside HTTP 200',
      overpassAnswer([], 'runtime error: Query timed out in "query" at line 1 after 21 seconds.'),
      'upstream_error',
      /reported an error inside HTTP 200 \(runtime error: Query timed out/,
    ],
    ['too many requests', overpassHtmlError(429, 'rate_limited'), 'upstream_error', /rate limited the gateway/],
    ['a gateway timeout page', overpassHtmlError(504, 'Gateway Timeout'), 'upstream_error', /answered HTTP 504/],
    [
      'no answer in time (it hangs)',
      { ...overpassAnswer([]), delayMs: 2000 },
      'upstream_timeout',
      /did not answer within 300 ms/,
    ],
  ])('answers %s with a 502 naming Overpass', async (_name, reply, code, message) => {
    fake.route('/interpreter', () => reply)
    const { status, json } = await call(gatewayFor(300), sentrum)
    expect(status).toBe(502)
    expect(json.error).toMatchObject({ code, upstream: 'overpass' })
    expect(json.error.message).toMatch(message)
  })
})
