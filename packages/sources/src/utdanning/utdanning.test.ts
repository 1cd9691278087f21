import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, fakeReply, type FakeUpstream, type TestGateway } from '@allmenning/core/testing'
import { createRequestBudget } from '../shared/request-budget.js'
import { startFakeKommuneinfo } from '../shared/testing/fake-kommuneinfo.js'
import { utdanning, type UtdanningOptions } from './index.js'
import { nsrUnits, startFakeNbr, startFakeNsr, udirRoutes } from './testing/fake-udir.js'

let nsr: FakeUpstream
let nbr: FakeUpstream
let kommuneinfo: FakeUpstream
let gateway: TestGateway

const generous = () => createRequestBudget({ requests: 1000, perMs: 1000, maxWaitMs: 0 })
const gatewayFor = (options: UtdanningOptions = {}) =>
  createTestGateway({
    sources: utdanning({ requestBudget: generous(), ...options }),
    upstreams: { udir_nsr: nsr, udir_nbr: nbr, kartverket_kommuneinfo: kommuneinfo },
  })
type Row = Record<string, unknown> & {
  organization_id: string
  Navn: string
  lat: number | null
  lon: number | null
  coordinates_status: string
}
const names = (rows: Row[]) => rows.map((r) => r.Navn)
const detailHits = (fake: FakeUpstream) => fake.requests.filter((path) => path.includes('/enhet/')).length
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

beforeAll(async () => {
  ;[nsr, nbr, kommuneinfo] = await Promise.all([startFakeNsr(), startFakeNbr(), startFakeKommuneinfo()])
  gateway = gatewayFor()
})
afterAll(() => Promise.all([nsr.close(), nbr.close(), kommuneinfo.close()]))
afterEach(() => expect(gateway.errors).toEqual([]))

describe('search_schools', () => {
  it("answers a municipality's schools in the rows clients read, positions from each school's record", async () => {
    const { status, json } = await gateway.call('utdanning', 'search_schools', { kommunenr: '0301' })
    expect(status).toBe(200)
    // Schools in operation that are grunnskole or videregående: not the owner, the fagskole or the closed school.
    expect(names(json.data.units)).toEqual([
      'Akersgata Montessoriskole',
      'Bislett skole',
      'Frogner spesialskole',
      'Grünerløkka skole',
      'Kampen skole',
      'Sentrum videregående skole',
      'Tøyen skole',
    ])
    const bislett = json.data.units.find((r: Row) => r.Navn === 'Bislett skole')
    expect(bislett).toMatchObject({
      organization_id: '971200006',
      Kommunenr: '0301',
      Fylkesnr: '03',
      ErAktiv: true,
      ErSkole: true,
      ErGrunnskole: true,
      ErGrunnSkole: true,
      ErVideregaaendeSkole: false,
      ErPrivatskole: false,
      ErPrivatSkole: false,
      school_type: 'grunnskole',
      lat: 59.9255,
      lon: 10.7352,
      coordinates_status: 'known',
      address: 'Theresesgate 12, 0168 OSLO',
      Beliggenhetsadresse: { Adresse: 'Theresesgate 12', Postnr: '0168', Poststed: 'OSLO' },
    })
    // Udir's (0, 0) "Undefined" is no position, and the row says so.
    expect(json.data.units.find((r: Row) => r.Navn === 'Tøyen skole')).toMatchObject({
      lat: null,
      lon: null,
      coordinates_status: 'none',
    })
    expect(json.data).toMatchObject({
      total: 7,
      returned: 7,
      coordinates_known: 6,
      coordinates_missing: 1,
      coordinates_pending: 0,
    })
    expect(json.data.other_schools_left_out).toBe(1)
    expect(json.data.has_more_results).toBe(false)
    expect(json._provenance.data.license ?? JSON.stringify(json._provenance)).toContain('NLOD')
  })

  it.each(['301', 'Oslo'])('takes the municipality as %s too', async (kommunenr) => {
    const { status, json } = await gateway.call('utdanning', 'search_schools', { kommunenr })
    expect(status).toBe(200)
    expect(json.data.kommunenr).toBe('0301')
    expect(json.data.total).toBe(7)
  })

  it.each(['03', '3'])('takes a county (%s) when no municipality is given', async (fylkenr) => {
    const { status, json } = await gateway.call('utdanning', 'search_schools', { fylkenr })
    expect(status).toBe(200)
    expect(json.data).toMatchObject({ fylkenr: '03', kommunenr: null, total: 7 })
  })

  it('asks for an area with a 400 naming kommunenr and fylkenr', async () => {
    const { status, json } = await gateway.call('utdanning', 'search_schools', {})
    expect(status).toBe(400)
    expect(json.error.details.map((d: { parameter: string }) => d.parameter)).toEqual(['kommunenr', 'fylkenr'])
  })

  it('refuses a malformed municipality or county with a 400 naming it', async () => {
    for (const [parameter, value] of [
      ['kommunenr', '30101'],
      ['fylkenr', '301'],
    ] as const) {
      const { status, json } = await gateway.call('utdanning', 'search_schools', { [parameter]: value })
      expect(status, parameter).toBe(400)
      expect(JSON.stringify(json.error)).toContain(parameter)
    }
  })

  it('filters by the flags, the name, closed schools and the other kinds of school', async () => {
    const call = async (query: Record<string, string | number | boolean>) =>
      names((await gateway.call('utdanning', 'search_schools', { kommunenr: '0301', ...query })).json.data.units)
    expect(await call({ videregaende: true })).toEqual(['Sentrum videregående skole'])
    expect(await call({ privat: true })).toEqual(['Akersgata Montessoriskole'])
    expect(await call({ grunnskole: true, privat: false })).not.toContain('Akersgata Montessoriskole')
    expect(await call({ query: 'grunerlokka' })).toEqual(['Grünerløkka skole'])
    expect(await call({ include_inactive: true })).toContain('Vaterland skole')
    const others = await gateway.call('utdanning', 'search_schools', { kommunenr: '0301', include_other_schools: true })
    expect(names(others.json.data.units)).toContain('Oslo tekniske fagskole')
    expect(others.json.data.units.find((r: Row) => r.Navn === 'Oslo tekniske fagskole').school_type).toBe('annen')
    expect(names(others.json.data.units)).not.toContain('Oslo kommune Utdanningsetaten')
  })

  it('honours limit and offset beyond 100, and says the most it takes', async () => {
    const page = await gateway.call('utdanning', 'search_schools', { kommunenr: '0301', limit: 2, offset: 2 })
    expect(page.json.data).toMatchObject({ total: 7, returned: 2, has_more_results: true })
    expect(names(page.json.data.units)).toEqual(['Frogner spesialskole', 'Grünerløkka skole'])
    expect((await gateway.call('utdanning', 'search_schools', { kommunenr: '0301', limit: 1000 })).status).toBe(200)
    expect((await gateway.call('utdanning', 'search_schools', { kommunenr: '0301', limit: 1001 })).status).toBe(400)
  })

  it("reads each school's record once, however many calls and operations need its position", async () => {
    const fresh = await startFakeNsr()
    const g = createTestGateway({
      sources: utdanning({ requestBudget: generous() }),
      upstreams: { udir_nsr: fresh, udir_nbr: nbr, kartverket_kommuneinfo: kommuneinfo },
    })
    try {
      await g.call('utdanning', 'search_schools', { kommunenr: '0301' })
      expect(detailHits(fresh)).toBe(7)
      await g.call('utdanning', 'search_schools', { kommunenr: '0301', limit: 50 })
      await g.call('utdanning', 'find_schools_nearby', { lat: 59.92, lon: 10.75 })
      expect(detailHits(fresh)).toBe(7)
    } finally {
      await fresh.close()
    }
  })

  it('answers at once with the rows whose record is not read yet marked pending, and fills them in the background', async () => {
    const slow = await startFakeNsr()
    const routes = udirRoutes(nsrUnits)
    slow.route('/enhet/{orgnr}', async (url, req, params) => {
      await sleep(300)
      return routes['/enhet/{orgnr}']!(url, req, params)
    })
    const g = createTestGateway({
      sources: utdanning({ requestBudget: generous(), fillSliceMs: 50 }),
      upstreams: { udir_nsr: slow, udir_nbr: nbr, kartverket_kommuneinfo: kommuneinfo },
    })
    try {
      const first = await g.call('utdanning', 'search_schools', { kommunenr: '0301' })
      expect(first.status).toBe(200)
      expect(first.json.data.coordinates_pending).toBe(7)
      expect(first.json.data.units.every((r: Row) => r.coordinates_status === 'pending' && r.lat === null)).toBe(true)
      await sleep(1200)
      const later = await g.call('utdanning', 'search_schools', { kommunenr: '0301', limit: 99 })
      expect(later.json.data.coordinates_pending).toBe(0)
      expect(later.json.data.coordinates_known).toBe(6)
    } finally {
      await slow.close()
    }
  })

  it('answers a 502 naming the school register when Udir fails or sends another shape', async () => {
    const broken = await startFakeNsr()
    const g = createTestGateway({
      sources: utdanning({ requestBudget: generous() }),
      upstreams: { udir_nsr: broken, udir_nbr: nbr, kartverket_kommuneinfo: kommuneinfo },
    })
    try {
      broken.failWith(fakeReply.status(503), { times: 1 })
      const down = await g.call('utdanning', 'search_schools', { kommunenr: '0301' })
      expect(down.status).toBe(502)
      expect(JSON.stringify(down.json.error)).toContain('udir_nsr')
      broken.route('/enheter/kommune/{nr}', () => fakeReply.json({ EnhetListe: 'nope' }))
      const odd = await g.call('utdanning', 'search_schools', { kommunenr: '3201' })
      expect(odd.status).toBe(502)
      expect(JSON.stringify(odd.json.error)).toContain('udir_nsr')
    } finally {
      await broken.close()
    }
  })
})

describe('search_kindergartens', () => {
  it("answers a municipality's kindergartens, not their owners nor closed ones", async () => {
    const { status, json } = await gateway.call('utdanning', 'search_kindergartens', { kommunenr: 'Oslo' })
    expect(status).toBe(200)
    expect(names(json.data.units)).toEqual([
      'Bislett barnehage',
      'Frognerparken barnehage',
      'Kampen familiebarnehage',
      'Sofienberg barnehage',
    ])
    expect(json.data.units[0]).toMatchObject({
      organization_id: '988300004',
      ErBarnehage: true,
      ErPrivatBarnehage: false,
      ErOffentligBarnehage: true,
      lat: 59.9262,
      lon: 10.737,
      coordinates_status: 'known',
    })
    expect(json.data).toMatchObject({ total: 4, returned: 4, coordinates_known: 3, coordinates_missing: 1 })
    const privat = await gateway.call('utdanning', 'search_kindergartens', { kommunenr: '0301', privat: true })
    expect(names(privat.json.data.units)).toEqual(['Frognerparken barnehage', 'Kampen familiebarnehage'])
  })
})

describe('get_unit', () => {
  it("answers a school's record with lat/lon, Koordinat and Beliggenhetsadresse as clients read them", async () => {
    const { status, json } = await gateway.call('utdanning', 'get_unit', { organization_id: '971200006' })
    expect(status).toBe(200)
    expect(json.data).toMatchObject({
      organization_id: '971200006',
      register: 'nsr',
      kind: 'school',
      Navn: 'Bislett skole',
      ErAktiv: true,
      ErGrunnskole: true,
      ErGrunnSkole: true,
      lat: 59.9255,
      lon: 10.7352,
      Koordinat: { Breddegrad: 59.9255, Lengdegrad: 10.7352, Zoom: 15, GeoKilde: 'GeoNorge' },
      Beliggenhetsadresse: { Adresse: 'Theresesgate 12', Postnr: '0168', Postnummer: '0168', Poststed: 'OSLO' },
      Elevtall: 412,
    })
  })

  it('finds a kindergarten in the kindergarten register when the school register has not got it', async () => {
    const { status, json } = await gateway.call('utdanning', 'get_unit', { organization_id: '988 300 012' })
    expect(status).toBe(200)
    expect(json.data).toMatchObject({
      register: 'nbr',
      kind: 'kindergarten',
      Navn: 'Sofienberg barnehage',
      ErPrivatBarnehage: false,
    })
  })

  it('says null for a record without a position, 404 for a number neither register has, 400 for a malformed one', async () => {
    const toyen = await gateway.call('utdanning', 'get_unit', { organization_id: '971200057' })
    expect(toyen.json.data).toMatchObject({ lat: null, lon: null, Koordinat: null })
    const unknown = await gateway.call('utdanning', 'get_unit', { organization_id: '974760673' })
    expect(unknown.status).toBe(404)
    expect(unknown.json.error.code).toBe('entity_not_found')
    const bad = await gateway.call('utdanning', 'get_unit', { organization_id: '12345' })
    expect(bad.status).toBe(400)
    expect(JSON.stringify(bad.json.error)).toContain('organization_id')
  })
})

describe('find_schools_nearby', () => {
  it('answers the schools around a point in Oslo, nearest first, with the distance', async () => {
    const { status, json } = await gateway.call('utdanning', 'find_schools_nearby', { lat: 59.91, lon: 10.75 })
    expect(status).toBe(200)
    expect(json.data.kommunenr).toBe('0301')
    expect(json.data.units.length).toBeGreaterThan(2)
    const distances = json.data.units.map((r: { distance_km: number }) => r.distance_km)
    expect(distances).toEqual([...distances].sort((a, b) => a - b))
    expect(distances.every((d: number) => d <= 2)).toBe(true)
    expect(names(json.data.units)).not.toContain('Vaterland skole')
  })

  it('answers an empty list at sea', async () => {
    const { status, json } = await gateway.call('utdanning', 'find_schools_nearby', { lat: 58.0, lon: 3.0 })
    expect(status).toBe(200)
    expect(json.data).toMatchObject({ units: [], kommunenr: null })
  })
})

describe('the entity search', () => {
  it('finds a listed school by name, with its position, and any unit by organisation number', async () => {
    await gateway.call('utdanning', 'search_schools', { kommunenr: '0301' })
    const byName = await gateway.get('/api/v1/sok/alle', { q: 'Bislett skole', mode: 'entities' })
    expect(byName.status).toBe(200)
    const hit = JSON.stringify(byName.json)
    expect(hit).toContain('971200006')
    // Placed, so /api/v1/steder/sok lists it, with its position.
    const places = await gateway.get('/api/v1/steder/sok', { q: 'Bislett skole' })
    expect(places.status).toBe(200)
    expect(JSON.stringify(places.json)).toContain('59.9255')
    const byNumber = await gateway.get('/api/v1/sok/alle', { q: '988300012', mode: 'entities' })
    expect(JSON.stringify(byNumber.json)).toContain('Sofienberg barnehage')
  })
})
