import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createTestGateway, type FakeUpstream } from '@allmenning/core/testing'
import { createRequestBudget, type RequestBudget } from '../shared/request-budget.js'
import { budgetFor, censusRequestBudget } from './census-budget.js'
import { arkivverket } from './index.js'
import { apartmentIdOf, startFakeDigitalarkivet } from './testing/fake-digitalarkivet.js'

let fake: FakeUpstream
beforeAll(async () => {
  fake = await startFakeDigitalarkivet()
})
afterAll(() => fake.close())

const generous = () => createRequestBudget({ requests: 1000, perMs: 1000, maxWaitMs: 0 })
const gatewayFor = (requestBudget: RequestBudget = generous(), options: { deadlineMs?: number } = {}) =>
  createTestGateway({ sources: arkivverket({ requestBudget }), upstreams: { digitalarkivet: fake }, ...options })

/** The query of the last call the fake received. */
const lastQuery = () => Object.fromEntries(new URL(fake.requests.at(-1)!, 'http://fake').searchParams)

type Row = {
  property_id: string
  gaardsnavn_gateadr: string | null
  gaardsnr: string | null
  coordinates: { lat: number; lon: number } | null
  residents: { name: string; person_id: string | null; kjonn: string | null }[] | null
}

describe('search_census_properties', () => {
  let before = 0
  beforeEach(() => {
    before = fake.requests.length
  })

  it("answers a name search in the public gateway's shape, residents included by default", async () => {
    const { status, json } = await gatewayFor().call('arkivverket', 'search_census_properties', {
      query: 'Kristiania',
      limit: 50,
    })
    expect(status).toBe(200)
    expect(lastQuery()).toEqual({ s: 'Kristiania', limit: '50', page: '1', include_persons: '1' })
    expect(json.parameters).toEqual({
      query: 'Kristiania',
      limit: 50,
      offset: 0,
      radius_m: 500,
      include_residents: true,
    })
    expect(json.data).toMatchObject({
      count: 13,
      returned: 13,
      limit: 50,
      offset: 0,
      has_more_results: false,
      truncated: false,
      next_offset: null,
    })
    const rows: Row[] = json.data.properties
    expect(rows[0]).toEqual({
      property_id: 'gf01036392000101',
      gaardsnavn_gateadr: 'Dronningens gate 14',
      gaardsnr: null,
      bruksnr: null,
      bruksnavn: null,
      fylke: 'Oslo',
      kommune_sokn: 'Kristiania',
      source: 'Folketelling 1910 for 0301 Kristiania kjøpstad',
      coordinates: { lat: 59.910412, lon: 10.746133 },
      residents: [
        expect.objectContaining({
          person_id: 'pf01036392010100',
          name: 'Hans Kristian Hansen',
          kjonn: 'm',
          familiestilling: 'hf',
        }),
        expect.objectContaining({
          name: 'Inga Hansen',
          sivilstand: 'g',
          yrke: 'hustru',
          fodselsaar: '1871-09-17',
          fodested: 'Kristiania',
        }),
        expect.objectContaining({ name: 'Olaf Hansen' }),
      ],
    })
    // A place Arkivverket has not mapped has coordinates null, never a made-up point.
    const unmapped = rows.find((r) => r.gaardsnavn_gateadr === 'Kjøbenhavnsgate 3')!
    expect(unmapped.coordinates).toBeNull()
    for (const row of rows.filter((r) => r.coordinates)) {
      expect(typeof row.coordinates!.lat).toBe('number')
      expect(typeof row.coordinates!.lon).toBe('number')
    }
    expect(json.entities[0]).toMatchObject({
      type: 'census_property',
      id: 'gf01036392000101',
      name: 'Dronningens gate 14',
    })
    expect(json._provenance.data.source).toMatch(/^Arkivverket/)
    expect(json._provenance.data.description).toMatch(/licence NLOD/)
  })

  it('keeps farm and holding numbers as the text the census gives', async () => {
    const { json } = await gatewayFor().call('arkivverket', 'search_census_properties', { query: 'Bryn' })
    expect(json.data.properties[0]).toMatchObject({
      property_id: 'bf01036372000131',
      gaardsnr: '132',
      bruksnr: '16',
      bruksnavn: 'Bryns teglverk',
      fylke: 'Akershus',
      kommune_sokn: 'Aker',
    })
  })

  it('searches around a point with the radius sent as precision, so central Oslo has hits', async () => {
    const { status, json } = await gatewayFor().call('arkivverket', 'search_census_properties', {
      lat: 59.91,
      lon: 10.75,
    })
    expect(status).toBe(200)
    expect(lastQuery()).toEqual({
      latitude: '59.91',
      longitude: '10.75',
      precision: '500',
      limit: '50',
      page: '1',
      include_persons: '1',
    })
    const names = json.data.properties.map((r: Row) => r.gaardsnavn_gateadr)
    expect(names).toContain('Dronningens gate 14')
    expect(names).not.toContain('Oslogaten 7') // about 1 km away
    const wider = await gatewayFor().call('arkivverket', 'search_census_properties', {
      lat: 59.91,
      lon: 10.75,
      radius_m: 1500,
    })
    expect(wider.json.data.properties.map((r: Row) => r.gaardsnavn_gateadr)).toContain('Oslogaten 7')
  })

  it('combines a name and a point, and leaves the residents out when asked', async () => {
    const { json } = await gatewayFor().call('arkivverket', 'search_census_properties', {
      query: 'Berg*',
      lat: 59.91,
      lon: 10.75,
      radius_m: 5000,
      include_residents: false,
    })
    expect(lastQuery()).toMatchObject({ s: 'Berg*', precision: '5000' })
    expect(lastQuery()).not.toHaveProperty('include_persons')
    const rows: Row[] = json.data.properties
    expect(rows.map((r) => r.property_id).sort()).toEqual([
      'bf01036372000241',
      'gf01036392000102',
      'gf01036392000104',
      'gf01036392000108',
    ])
    for (const row of rows) expect(row.residents).toBeNull()
  })

  it('pages with the upstream: one call a page, on page boundaries and off them', async () => {
    const g = gatewayFor()
    const first = await g.call('arkivverket', 'search_census_properties', { query: 'Kristiania', limit: 5 })
    expect(first.json.data).toMatchObject({
      count: 13,
      returned: 5,
      has_more_results: true,
      truncated: true,
      next_offset: 5,
    })
    expect(first.json._meta.pagination).toMatchObject({ total: 13, next_offset: 5 })
    const third = await g.call('arkivverket', 'search_census_properties', { query: 'Kristiania', limit: 5, offset: 10 })
    expect(lastQuery()).toMatchObject({ limit: '5', page: '3' })
    expect(third.json.data).toMatchObject({ returned: 3, has_more_results: false, next_offset: null })
    const odd = await g.call('arkivverket', 'search_census_properties', { query: 'Kristiania', limit: 4, offset: 3 })
    expect(lastQuery()).toMatchObject({ limit: '7', page: '1' })
    expect(odd.json.data.properties.map((r: Row) => r.property_id)).toEqual(
      first.json.data.properties
        .slice(3)
        .map((r: Row) => r.property_id)
        .concat(['gf01036392000106', 'gf01036392000107']),
    )
    expect(fake.requests.length - before).toBe(3)
  })

  it.each([
    [{}, 'query', /required unless lat and lon/],
    [{ lat: 59.91 }, 'lon', /point needs both/],
    [{ query: 'Berg', lon: 10.75 }, 'lat', /point needs both/],
    [{ lat: 59.91, lon: 10.75, radius_m: 6000 }, 'radius_m', /5000/],
    [{ query: 'x'.repeat(101) }, 'query', /100 characters/],
  ])('refuses %j with a 400 naming %s, without calling Digitalarkivet', async (query, parameter, problem) => {
    const { status, json } = await gatewayFor().call('arkivverket', 'search_census_properties', query)
    expect(status).toBe(400)
    expect(json.error.details[0].parameter).toBe(parameter)
    expect(json.error.details[0].problem).toMatch(problem)
    expect(fake.requests.length).toBe(before)
  })
})

describe('get_census_property', () => {
  it('reads a farm with its residents', async () => {
    const { status, json } = await gatewayFor().call('arkivverket', 'get_census_property', {
      property_id: 'bf01036372000241',
    })
    expect(status).toBe(200)
    expect(json.data).toMatchObject({
      property_id: 'bf01036372000241',
      gaardsnavn_gateadr: 'Berg',
      gaardsnr: '41',
      bruksnr: '1',
      apartments: [],
    })
    expect(json.data.residents.map((r: { name: string }) => r.name)).toEqual(['Lars Berg', 'Kari Berg', 'Hans Olsen'])
  })

  it('lists a town address by apartment, and reads an apartment’s residents by its own id', async () => {
    const g = gatewayFor()
    const address = await g.call('arkivverket', 'get_census_property', { property_id: 'gf01036392000103' })
    expect(address.json.data).toMatchObject({
      gaardsnavn_gateadr: 'Prinsens gate 7',
      residents: [],
      coordinates: { lat: 59.911305, lon: 10.745021 },
    })
    expect(address.json.data.apartments).toEqual([
      { apartment_id: apartmentIdOf('gf01036392000103'), leilighetsnummer: '1', etasje: '2', husleie: '480' },
    ])
    const apartment = await g.call('arkivverket', 'get_census_property', {
      property_id: address.json.data.apartments[0].apartment_id,
    })
    expect(apartment.status).toBe(200)
    expect(apartment.json.data.residents.map((r: { name: string }) => r.name)).toEqual([
      'Peder Johansen',
      'Karen Johansen',
    ])
  })

  it('answers 404 for an id the archive does not have, and 400 for one that is not an id', async () => {
    const missing = await gatewayFor().call('arkivverket', 'get_census_property', { property_id: 'bf09999999999999' })
    expect(missing.status).toBe(404)
    expect(missing.json.error.code).toBe('entity_not_found')
    const bad = await gatewayFor().call('arkivverket', 'get_census_property', { property_id: '../search_property_geo' })
    expect(bad.status).toBe(400)
    expect(bad.json.error.details[0].parameter).toBe('property_id')
  })
})

describe('the crawl delay', () => {
  it('answers a burst of different searches within the deadline: two at once, the rest refused at once with Retry-After', async () => {
    // The source's own budget (2 requests in 10 s, at most 4 s of waiting), fresh for this test.
    const budget = createRequestBudget({ requests: 2, perMs: 10_000, maxWaitMs: 4_000 })
    const g = gatewayFor(budget, { deadlineMs: 10_000 })
    const before = fake.requests.length
    const queries = ['Hansen', 'Olsen', 'Berg', 'Johansen', 'Bryn', 'Kvamme']
    const started = Date.now()
    const answers = await Promise.all(
      queries.map(async (query) => {
        const res = await g.call('arkivverket', 'search_census_properties', { query })
        return { ...res, ms: Date.now() - started }
      }),
    )
    const ok = answers.filter((a) => a.status === 200)
    const refused = answers.filter((a) => a.status !== 200)
    expect(ok).toHaveLength(2)
    expect(refused).toHaveLength(4)
    for (const a of refused) {
      expect(a.status).toBe(502)
      expect(a.json.error.code).toBe('upstream_busy')
      expect(a.json.error.message).toMatch(/Digitalarkivet .*try again in \d+ s/)
      expect(Number(a.headers['retry-after'])).toBeGreaterThanOrEqual(1)
      expect(Number(a.headers['retry-after'])).toBeLessThanOrEqual(10)
    }
    // None waited for a turn it could not get: every answer came well inside the deadline.
    for (const a of answers) expect(a.ms).toBeLessThan(2_000)
    expect(fake.requests.length - before).toBe(2)
    // An answer already fetched is served from the cache while the budget is spent.
    const again = await g.call('arkivverket', 'search_census_properties', { query: ok[0]!.json.parameters.query })
    expect(again.status).toBe(200)
    expect(fake.requests.length - before).toBe(2)
  })

  it('lets a call wait for a turn that comes within the wait allowed, and answers it', async () => {
    const budget = createRequestBudget({ requests: 1, perMs: 600, maxWaitMs: 1_000 })
    const g = gatewayFor(budget)
    const started = Date.now()
    const [a, b] = await Promise.all([
      g.call('arkivverket', 'search_census_properties', { query: 'Bergene' }),
      g.call('arkivverket', 'search_census_properties', { query: 'Haugen' }),
    ])
    expect([a.status, b.status]).toEqual([200, 200])
    expect(Date.now() - started).toBeGreaterThanOrEqual(550)
  })
})

describe('which budget a call takes', () => {
  const at = (base: string) => ({ url: (path: string) => `${base}${path}` })

  it("keeps Digitalarkivet's crawl delay for the real host and any other remote one, not for a stand-in on this machine", () => {
    expect(budgetFor(at('https://api.digitalarkivet.no/v1/census/1910'), undefined)).toBe(censusRequestBudget)
    expect(budgetFor(at('https://census-mirror.example.org/v1'), undefined)).toBe(censusRequestBudget)
    expect(budgetFor(at('http://127.0.0.1:4000'), undefined)).toBeUndefined()
    const given = generous()
    expect(budgetFor(at('http://127.0.0.1:4000'), given)).toBe(given)
  })

  it('lets the offline demo (a local stand-in, no budget given) answer a burst in full', async () => {
    const g = createTestGateway({ sources: arkivverket(), upstreams: { digitalarkivet: fake } })
    const answers = await Promise.all(
      ['Nilsen', 'Larsen', 'Pedersen', 'Andersen'].map((query) =>
        g.call('arkivverket', 'search_census_properties', { query }),
      ),
    )
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200])
    expect(censusRequestBudget.inWindow).toBe(0)
  })
})

describe('entity search', () => {
  it('finds census places by name with their position, linked to get_census_property', async () => {
    const { status, json } = await gatewayFor().get('/api/v1/sok/alle', { q: 'Bryn', mode: 'entities' })
    expect(status).toBe(200)
    const hit = json.results.find((r: { source: string }) => r.source === 'arkivverket')
    expect(hit).toMatchObject({
      type: 'census_property',
      id: 'bf01036372000131',
      name: 'Bryn',
      description: '1910 census: Aker, Akershus',
      _links: { api: '/api/v1/kilder/arkivverket/get_census_property?property_id=bf01036372000131' },
    })
  })

  it('gives the places a position, so /steder/sok lists them', async () => {
    const { status, json } = await gatewayFor().get('/api/v1/steder/sok', { q: 'Bryn' })
    expect(status).toBe(200)
    expect(JSON.stringify(json)).toContain('59.909721')
  })

  it('leaves the turns to the operation’s callers when a census call was just made', async () => {
    const budget = createRequestBudget({ requests: 2, perMs: 10_000, maxWaitMs: 4_000 })
    const g = gatewayFor(budget)
    await g.call('arkivverket', 'search_census_properties', { query: 'Kvamme' })
    const before = fake.requests.length
    const { status, json } = await g.get('/api/v1/sok/alle', { q: 'Haugen', mode: 'entities' })
    expect(status).toBe(200)
    expect(json.results.filter((r: { source: string }) => r.source === 'arkivverket')).toEqual([])
    expect(fake.requests.length).toBe(before)
  })
})
