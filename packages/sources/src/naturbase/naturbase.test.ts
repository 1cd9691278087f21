import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, fakeReply, type FakeUpstream, type TestGateway } from '@allmenning/core/testing'
import { inPolygon, type AreaGeometry, type PolygonRings, type Position } from './area-geometry.js'
import { naturbase } from './index.js'
import { arcgisError, startFakeNaturbase } from './testing/fake-naturbase.js'

let fake: FakeUpstream
let gateway: TestGateway

type Area = {
  id: string
  official_name: string
  lat: number
  lon: number
  distance_km: number
  geometry: AreaGeometry | null
  protection_form: string
  area_km2: number
}

const OSLO = { lat: 59.91, lon: 10.75 }
const polygonsOf = (geometry: AreaGeometry): PolygonRings[] =>
  geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates
const inside = (area: Area) => polygonsOf(area.geometry!).some((p) => inPolygon([area.lon, area.lat] as Position, p))

beforeAll(async () => {
  fake = await startFakeNaturbase()
  gateway = createTestGateway({ sources: naturbase(), upstreams: { naturbase_vern: fake } })
})
afterAll(() => fake.close())
afterEach(() => {
  expect(gateway.errors).toEqual([])
  fake.failWith(undefined)
})

describe('find_protected_areas', () => {
  it('answers the areas within 5 km of a point in Oslo, nearest first, each with a point inside it', async () => {
    const { status, json } = await gateway.call('naturbase', 'find_protected_areas', OSLO)
    expect(status).toBe(200)
    const areas: Area[] = json.data.protected_areas
    expect(areas.map((a) => a.id)).toEqual(['VV00002995', 'VV00000965', 'VV00000970', 'VV00000972'])
    expect(areas.map((a) => a.distance_km)).toEqual([...areas.map((a) => a.distance_km)].sort((a, b) => a - b))
    // Østmarka lies 7 km east: in no 5 km answer.
    expect(json.data).toMatchObject({ count: 4, radius_km: 5, upstream_capped: false, has_more_results: false })
    for (const area of areas) {
      expect(typeof area.lat).toBe('number')
      expect(inside(area)).toBe(true)
    }
    expect(json._meta.capped).toBeUndefined()
  })

  it('reads every attribute into readable fields: form in words, IUCN, the date in Norwegian time, municipalities, links', async () => {
    const { json } = await gateway.call('naturbase', 'find_protected_areas', {
      lat: 59.887,
      lon: 10.826,
      radius_km: 10,
    })
    const lake = json.data.protected_areas.find((a: Area) => a.id === 'VV00000972')
    expect(lake).toMatchObject({
      name: 'Østensjøvannet',
      official_name: 'Østensjøvannet naturreservat',
      protection_form: 'Naturreservat',
      protection_form_text: 'naturreservat',
      iucn_category: 'IV',
      iucn_text: 'Habitat/species management area',
      // Stored as 1992-12-17T23:00Z: midnight in Norway on the 18th.
      protection_date: '1992-12-18',
      municipality: 'Oslo',
      municipalities: [{ name: 'Oslo', number: null }],
      management_authority: 'Statsforvalteren i Oslo og Viken',
      fact_sheet_url: 'https://faktaark.naturbase.no/?id=VV00000972',
      regulation_url: 'http://www.lovdata.no/for/lf/mv/xv-19921218-1083.html',
      point_method: 'pole_of_inaccessibility',
      geometry_tolerance_m: 20,
    })
    // The point 59.887, 10.826 is in the open water, a hole of the reserve: not inside, but near.
    expect(lake.distance_km).toBeGreaterThan(0)
    expect(lake.distance_km).toBeLessThan(0.3)
    expect(lake.geometry.type).toBe('Polygon')
    expect(lake.geometry.coordinates).toHaveLength(2)
    expect(lake.area_km2).toBeGreaterThan(0.5)
    expect(lake.area_km2).toBeLessThan(1.5)
    const forest = json.data.protected_areas.find((a: Area) => a.id === 'VV00002860')
    expect(forest.municipalities).toEqual([
      { name: 'Oslo', number: '0301' },
      { name: 'Nordre Follo', number: '3207' },
      { name: 'Lillestrøm', number: '3205' },
      { name: 'Enebakk', number: '3220' },
    ])
    expect(forest.iucn_category).toBe('Ia')
  })

  it('gives distance 0 inside an area, and joins the parts of an area sent as several features into one MultiPolygon', async () => {
    const { json } = await gateway.call('naturbase', 'find_protected_areas', { lat: 59.885, lon: 10.714, radius_km: 2 })
    const [islands] = json.data.protected_areas
    expect(islands).toMatchObject({ id: 'VV00000970', distance_km: 0 })
    expect(islands.geometry.type).toBe('MultiPolygon')
    expect(islands.geometry.coordinates).toHaveLength(3)
    expect(inside(islands)).toBe(true)
  })

  it('asks the service for WGS84, a box around the point, generalised outlines and every field, as Esri JSON', async () => {
    await gateway.call('naturbase', 'find_protected_areas', { lat: 59.95, lon: 10.6, radius_km: 2 })
    const query = fake.received.at(-1)!.query
    expect(Object.fromEntries(query)).toMatchObject({
      f: 'json',
      where: '1=1',
      outSR: '4326',
      inSR: '4326',
      geometryType: 'esriGeometryEnvelope',
      spatialRel: 'esriSpatialRelIntersects',
      outFields: '*',
      returnGeometry: 'true',
      maxAllowableOffset: '0.000180',
    })
    const [west, south, east, north] = query.get('geometry')!.split(',').map(Number)
    expect(north! - south!).toBeCloseTo(4 / 111.195, 4)
    expect(east! - west!).toBeGreaterThan(north! - south!)
  })

  it('leaves out an area whose box meets the search box when its outline is farther than the radius', async () => {
    // Østmarka's north-west corner is 8 km away; its box is within the 7 km box's corner.
    const { json } = await gateway.call('naturbase', 'find_protected_areas', { lat: 59.96, lon: 10.8, radius_km: 7 })
    expect(json.data.protected_areas.map((a: Area) => a.id)).not.toContain('VV00002860')
    const wider = await gateway.call('naturbase', 'find_protected_areas', { lat: 59.96, lon: 10.8, radius_km: 9 })
    expect(wider.json.data.protected_areas.map((a: Area) => a.id)).toContain('VV00002860')
  })

  it('filters by form of protection, by code or by words, and asks the service for those forms only', async () => {
    const words = await gateway.call('naturbase', 'find_protected_areas', { ...OSLO, verneform: 'landskapsvernområde' })
    expect(words.json.data.protected_areas.map((a: Area) => a.id)).toEqual(['VV00000965'])
    expect(fake.received.at(-1)!.query.get('where')).toMatch(
      /^verneform IN \('Landskapsvernomraade','LandskapsvernomraadeBiotopvern',/,
    )
    const code = await gateway.call('naturbase', 'find_protected_areas', { ...OSLO, verneform: 'Naturreservat' })
    expect(code.json.data.protected_areas.every((a: Area) => a.protection_form === 'Naturreservat')).toBe(true)
    expect(code.json.data.count).toBe(3)
  })

  it('leaves the outline out when include_geometry=false, and keeps the point', async () => {
    const { json } = await gateway.call('naturbase', 'find_protected_areas', { ...OSLO, include_geometry: false })
    expect(json.data.protected_areas[0]).toMatchObject({ geometry: null, point_method: 'pole_of_inaccessibility' })
    expect(typeof json.data.protected_areas[0].lat).toBe('number')
  })

  it('says when the service cut the answer at its page size', async () => {
    const small = await startFakeNaturbase({ maxRecordCount: 2 })
    try {
      const capped = createTestGateway({ sources: naturbase(), upstreams: { naturbase_vern: small } })
      const { status, json } = await capped.call('naturbase', 'find_protected_areas', OSLO)
      expect(status).toBe(200)
      expect(json.data.upstream_capped).toBe(true)
      expect(json._meta.capped).toMatchObject({ cap: 2 })
      expect(json._meta.capped.reason).toMatch(/smaller radius_km/)
    } finally {
      await small.close()
    }
  })

  it.each([
    [{ lat: 91, lon: 10 }, 'lat'],
    [{ ...OSLO, radius_km: 51 }, 'radius_km'],
    [{ ...OSLO, radius_km: 0 }, 'radius_km'],
    [{ ...OSLO, verneform: 'slottspark' }, 'verneform'],
    [{ ...OSLO, include_geometry: 'kanskje' }, 'include_geometry'],
  ])('refuses %o with a 400 naming %s', async (query, parameter) => {
    const { status, json } = await gateway.call('naturbase', 'find_protected_areas', query)
    expect(status).toBe(400)
    expect(JSON.stringify(json)).toContain(parameter)
  })
})

describe('get_protected_area', () => {
  it('answers one area by id with its whole outline, asked without generalisation', async () => {
    const { status, json } = await gateway.call('naturbase', 'get_protected_area', { id: 'vv00002995' })
    expect(status).toBe(200)
    expect(json.data).toMatchObject({
      id: 'VV00002995',
      official_name: 'Ekebergskråningen naturreservat',
      geometry_tolerance_m: null,
      regulation_url: null,
    })
    expect(inside(json.data)).toBe(true)
    const query = fake.received.at(-1)!.query
    expect(query.get('where')).toBe("naturvernId = 'VV00002995'")
    expect(query.has('maxAllowableOffset')).toBe(false)
  })

  it('generalises when simplify_m asks it to', async () => {
    const { json } = await gateway.call('naturbase', 'get_protected_area', { id: 'VV00000972', simplify_m: 50 })
    expect(json.data.geometry_tolerance_m).toBe(50)
    expect(fake.received.at(-1)!.query.get('maxAllowableOffset')).toBe((50 / 111_320).toFixed(7))
  })

  it('answers 404 for an id the register does not have, and 400 for one that is no id', async () => {
    const missing = await gateway.call('naturbase', 'get_protected_area', { id: 'VV99999999' })
    expect(missing.status).toBe(404)
    expect(missing.json.error.code).toBe('entity_not_found')
    const bad = await gateway.call('naturbase', 'get_protected_area', { id: "VV1' OR 1=1" })
    expect(bad.status).toBe(400)
    expect(JSON.stringify(bad.json)).toContain('id')
  })
})

describe('search_protected_areas and the entity search', () => {
  it('finds areas by name, best match first, with a point inside and no outline', async () => {
    const { status, json } = await gateway.call('naturbase', 'search_protected_areas', { query: 'østensjø' })
    expect(status).toBe(200)
    expect(json.data.protected_areas.map((a: Area) => a.id)).toEqual(['VV00000972'])
    expect(json.data.protected_areas[0]).toMatchObject({ geometry: null })
    expect(fake.received.at(-1)!.query.get('where')).toBe(
      "UPPER(navn) LIKE '%ØSTENSJØ%' OR UPPER(offisieltNavn) LIKE '%ØSTENSJØ%'",
    )
  })

  it('keeps a quote in the text from breaking the clause', async () => {
    const { status } = await gateway.call('naturbase', 'search_protected_areas', { query: "Kari's holme" })
    expect(status).toBe(200)
    expect(fake.received.at(-1)!.query.get('where')).toContain("'%KARI''S HOLME%'")
  })

  it('lists protected areas in /api/v1/steder/sok at their inside point, linked to get_protected_area', async () => {
    const { status, json } = await gateway.get('/api/v1/steder/sok', { q: 'Ekebergskråningen' })
    expect(status).toBe(200)
    const hit = json.results.find((r: { source: string }) => r.source === 'naturbase')
    expect(hit).toMatchObject({
      type: 'protected_area',
      id: 'VV00002995',
      name: 'Ekebergskråningen naturreservat',
      description: 'Naturreservat in Oslo',
    })
    expect(typeof hit.lat).toBe('number')
    expect(hit._links.api).toBe('/api/v1/kilder/naturbase/get_protected_area?id=VV00002995')
  })
})

describe('what the service may send', () => {
  it('answers 502 naming the service for an error it sends with HTTP 200', async () => {
    fake.failWith(arcgisError(400, 'Unable to complete operation.', ['Unable to perform query operation.']))
    const { status, json } = await gateway.call('naturbase', 'find_protected_areas', { lat: 60.1, lon: 10.1 })
    expect(status).toBe(502)
    expect(json.error.message).toContain('naturbase_vern')
    expect(json.error.message).toContain('Unable to complete operation')
  })

  it('answers 502 for a body of another shape, another spatial reference, or an error status', async () => {
    fake.failWith(fakeReply.json({ features: [{ attributes: { navn: 'uten id' } }] }))
    expect((await gateway.call('naturbase', 'find_protected_areas', { lat: 60.2, lon: 10.1 })).status).toBe(502)
    fake.failWith(fakeReply.json({ spatialReference: { wkid: 102100, latestWkid: 3857 }, features: [] }))
    const projected = await gateway.call('naturbase', 'find_protected_areas', { lat: 60.3, lon: 10.1 })
    expect(projected.status).toBe(502)
    expect(projected.json.error.message).toContain('3857')
    fake.failWith(fakeReply.status(503, 'Service Unavailable'))
    expect((await gateway.call('naturbase', 'find_protected_areas', { lat: 60.4, lon: 10.1 })).status).toBe(502)
    gateway.errors.length = 0
  })

  it('gives an area without a shape no point and no outline, and still lists it in a search', async () => {
    fake.failWith(
      fakeReply.json({
        features: [{ attributes: { naturvernId: 'VV00001234', navn: 'Uten form', vernedato: null }, geometry: null }],
      }),
    )
    const { status, json } = await gateway.call('naturbase', 'search_protected_areas', { query: 'Uten form' })
    expect(status).toBe(200)
    expect(json.data.protected_areas[0]).toMatchObject({
      id: 'VV00001234',
      lat: null,
      lon: null,
      geometry: null,
      area_km2: null,
      protection_date: null,
    })
  })
})

describe('the attribution', () => {
  it('names Miljødirektoratet and NLOD in _provenance', async () => {
    const { json } = await gateway.call('naturbase', 'find_protected_areas', OSLO)
    expect(JSON.stringify(json._provenance)).toContain('Miljødirektoratet')
    expect(JSON.stringify(json._provenance)).toContain('NLOD')
  })
})
