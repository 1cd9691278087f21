import * as v from 'valibot'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, fakeReply, type FakeUpstream, type TestGateway } from '@allmenning/core/testing'
import { createRequestBudget } from '../shared/request-budget.js'
import { kommuneinfoRoutes, startFakeKommuneinfo } from '../shared/testing/fake-kommuneinfo.js'
import { anleggsregisteret, type AnleggsregisteretOptions } from './index.js'
import {
  anleggsregisteretPaths,
  facilitiesRoute,
  startFakeAnleggsregisteret,
} from './testing/fake-anleggsregisteret.js'

let fake: FakeUpstream
let kommuneinfo: FakeUpstream
let gateway: TestGateway

const generous = () => createRequestBudget({ requests: 1000, perMs: 1000, maxWaitMs: 0 })
const gatewayFor = (options: AnleggsregisteretOptions = {}) =>
  createTestGateway({
    sources: anleggsregisteret({ requestBudget: generous(), ...options }),
    upstreams: { anleggsregisteret: fake, kartverket_kommuneinfo: kommuneinfo },
  })
type Row = {
  id: number
  name: string | null
  lat: number | null
  lon: number | null
  status: string | null
  position_quality: string
  position_note: string | null
  county: string | null
}
const ids = (rows: Row[]) => rows.map((row) => row.id)

beforeAll(async () => {
  ;[fake, kommuneinfo] = await Promise.all([startFakeAnleggsregisteret(), startFakeKommuneinfo()])
  gateway = gatewayFor()
})
afterAll(() => Promise.all([fake.close(), kommuneinfo.close()]))
afterEach(() => expect(gateway.errors).toEqual([]))

describe('find_facilities', () => {
  it("answers a municipality's facilities in the public gateway's row fields, with numbers for id and position", async () => {
    const { status, json } = await gateway.call('anleggsregisteret', 'find_facilities', {
      municipality: 'Oslo',
      limit: 500,
    })
    expect(status).toBe(200)
    expect(json.data.facilities[0]).toEqual({
      id: 1001,
      name: 'Jordal Amfi',
      facility_type: 'Ishall',
      category: 'Is- og skøyteanlegg',
      status: 'EXISTING',
      lat: 59.91204,
      lon: 10.78462,
      municipality: 'Oslo',
      county: 'Oslo',
      owner: 'OSLO KOMMUNE',
      operator: 'Bymiljøetaten',
      position_quality: 'register',
      position_note: null,
    })
    // Every Oslo facility, however the register spells the municipality (OSLO, Oslo kommune); none without an id.
    expect(ids(json.data.facilities)).toEqual(Array.from({ length: 15 }, (_, i) => 1001 + i))
    expect(json.data).toMatchObject({
      count: 15,
      has_more_results: false,
      municipalities: [
        { municipality: 'Oslo', county: 'Oslo', facilities: 13 },
        { municipality: 'OSLO', county: 'OSLO', facilities: 1 },
        { municipality: 'Oslo kommune', county: 'Oslo', facilities: 1 },
      ],
    })
    expect(Date.parse(json.data.register_read_at)).toBeGreaterThan(Date.now() - 60_000)
  })

  it('moves a longitude registered in the wrong UTM zone back by 6°, and says so', async () => {
    const oslo = await gateway.call('anleggsregisteret', 'find_facilities', { municipality: 'Oslo', limit: 500 })
    const hall = (oslo.json.data.facilities as Row[]).find((row) => row.id === 1008)!
    expect(hall).toMatchObject({ lat: 59.93012, lon: 10.71599, position_quality: 'corrected_utm_zone' })
    expect(hall.position_note).toMatch(
      /^Longitude moved by \+6°: the register gives \(59\.93012, 4\.71599\), \d+ km from/,
    )
    const bergen = await gateway.call('anleggsregisteret', 'find_facilities', { municipality: 'Bergen' })
    const cage = (bergen.json.data.facilities as Row[]).find((row) => row.id === 3004)!
    expect(cage).toMatchObject({ lat: 60.37412, lon: 5.36001, position_quality: 'corrected_utm_zone' })
    expect(cage.position_note).toMatch(/^Longitude moved by −6°/)
    expect(bergen.json._raw_values).toMatchObject({ positions_corrected: 1, positions_withheld: 0 })
  })

  it('gives no position, with the reason, for stand-ins, missing positions, (0, 0) and positions far away', async () => {
    const { json } = await gateway.call('anleggsregisteret', 'find_facilities', { municipality: 'Oslo', limit: 500 })
    const byId = new Map((json.data.facilities as Row[]).map((row) => [row.id, row]))
    for (const [id, quality, note] of [
      [1009, 'placeholder', /stand-in it uses for Oslo facilities/],
      [1010, 'placeholder', /stand-in/],
      [1011, 'missing', /no position/],
      [1012, 'missing', /no position/],
      [
        1013,
        'implausible',
        /^The register gives \(63\.43048, 10\.39506\), \d{3} km from the municipality's other facilities; left out/,
      ],
    ] as const) {
      expect(byId.get(id)).toMatchObject({ lat: null, lon: null, position_quality: quality })
      expect(byId.get(id)!.position_note).toMatch(note)
    }
    // The rest keep the register's position as it is.
    const kept = (json.data.facilities as Row[]).filter((row) => row.position_quality === 'register')
    expect(kept).toHaveLength(9)
    expect(kept.every((row) => typeof row.lat === 'number' && typeof row.lon === 'number')).toBe(true)
    expect(json._raw_values).toMatchObject({
      positions_corrected: 1,
      positions_withheld: 5,
      register_rows_without_id: 1,
    })
  })

  it('takes the municipality by its number (0301, 301) through Kartverket, as by its name', async () => {
    const byName = await gateway.call('anleggsregisteret', 'find_facilities', { municipality: 'oslo', limit: 500 })
    for (const municipality of ['0301', '301']) {
      const { status, json } = await gateway.call('anleggsregisteret', 'find_facilities', { municipality, limit: 500 })
      expect(status).toBe(200)
      expect(ids(json.data.facilities)).toEqual(ids(byName.json.data.facilities))
      expect(json.parameters.municipality).toBe('0301')
    }
  })

  it('answers both municipalities a shared name names, and the one a number names', async () => {
    const byName = await gateway.call('anleggsregisteret', 'find_facilities', { municipality: 'Herøy' })
    expect(ids(byName.json.data.facilities)).toEqual([4001, 4002])
    expect(byName.json.data.municipalities).toEqual([
      { municipality: 'Herøy', county: 'Møre og Romsdal', facilities: 1 },
      { municipality: 'Herøy', county: 'Nordland', facilities: 1 },
    ])
    const nordland = await gateway.call('anleggsregisteret', 'find_facilities', { municipality: '1818' })
    expect(ids(nordland.json.data.facilities)).toEqual([4002])
  })

  it('finds a municipality written with its Sami and Norwegian names together, by either', async () => {
    for (const municipality of ['Tana', 'Deatnu', 'deatnu-tana', '5636']) {
      const { json } = await gateway.call('anleggsregisteret', 'find_facilities', { municipality })
      expect(ids(json.data.facilities), municipality).toEqual([5001])
    }
  })

  it('filters by status, case-insensitively', async () => {
    const { json } = await gateway.call('anleggsregisteret', 'find_facilities', {
      municipality: 'Oslo',
      status: 'planned',
      limit: 500,
    })
    expect(json.parameters.status).toBe('PLANNED')
    expect(ids(json.data.facilities)).toEqual([1010, 1011, 1015])
    expect(json.data.count).toBe(3)
    for (const status of ['CLOSED_DOWN', 'UNREALIZED']) {
      const other = await gateway.call('anleggsregisteret', 'find_facilities', { municipality: 'Oslo', status })
      expect(other.json.data.facilities.map((row: Row) => row.status)).toEqual([status])
    }
    const bad = await gateway.call('anleggsregisteret', 'find_facilities', { municipality: 'Oslo', status: 'OPEN' })
    expect(bad.status).toBe(400)
    expect(bad.json.error.details[0]).toMatchObject({ parameter: 'status' })
  })

  it('pages with limit and offset, up to 500, and refuses more with a 400 rather than cutting silently', async () => {
    const first = await gateway.call('anleggsregisteret', 'find_facilities', { municipality: 'Oslo', limit: 10 })
    expect(first.json.data).toMatchObject({ count: 15, has_more_results: true })
    expect(first.json.data.facilities).toHaveLength(10)
    const rest = await gateway.call('anleggsregisteret', 'find_facilities', {
      municipality: 'Oslo',
      limit: 10,
      offset: 10,
    })
    expect(ids(rest.json.data.facilities)).toEqual([1011, 1012, 1013, 1014, 1015])
    expect(rest.json.data.has_more_results).toBe(false)
    const tooMany = await gateway.call('anleggsregisteret', 'find_facilities', { municipality: 'Oslo', limit: 501 })
    expect(tooMany.status).toBe(400)
    expect(tooMany.json.error.details).toEqual([
      { parameter: 'limit', problem: 'must be at most 500', rule: 'max_value' },
    ])
  })

  it('answers 404 for a name the register does not have, with the names closest to it, and for an unknown number', async () => {
    const typo = await gateway.call('anleggsregisteret', 'find_facilities', { municipality: 'Oslu' })
    expect(typo.status).toBe(404)
    expect(typo.json.error.message).toMatch(/^Anleggsregisteret has no municipality called "Oslu"/)
    const unknown = await gateway.call('anleggsregisteret', 'find_facilities', { municipality: '0399' })
    expect(unknown.status).toBe(404)
    expect(unknown.json.error.message).toBe("No municipality numbered 0399 in Kartverket's register")
    const short = await gateway.call('anleggsregisteret', 'find_facilities', { municipality: '12' })
    expect(short.status).toBe(400)
    expect(short.json.error.details[0]).toMatchObject({ parameter: 'municipality' })
  })

  it('answers a municipality Kartverket knows but the register has nothing for with an empty list', async () => {
    kommuneinfo.route('/kommuner/{number}', (_url, _req, params) =>
      params.number === '1103'
        ? fakeReply.json({
            kommunenummer: '1103',
            kommunenavn: 'Stavanger',
            kommunenavnNorsk: 'Stavanger',
            fylkesnavn: 'Rogaland',
            fylkesnummer: '11',
            gyldigeNavn: [{ navn: 'Stavanger' }],
          })
        : fakeReply.json({ message: 'not found' }, { status: 404 }),
    )
    try {
      const { status, json } = await gatewayFor().call('anleggsregisteret', 'find_facilities', { municipality: '1103' })
      expect(status).toBe(200)
      expect(json.data).toMatchObject({ facilities: [], count: 0, municipalities: [] })
    } finally {
      kommuneinfo.route('/kommuner/{number}', kommuneinfoRoutes['/kommuner/{number}'])
    }
  })

  it('reads the register once, with the headers the register’s own page sends, for many questions', async () => {
    const local = gatewayFor()
    const before = fake.requests.length
    await Promise.all(
      ['Oslo', 'Bergen', 'Herøy', 'Bærum'].map((municipality) =>
        local.call('anleggsregisteret', 'find_facilities', { municipality }),
      ),
    )
    await local.call('anleggsregisteret', 'find_facilities', { municipality: 'Oslo', status: 'EXISTING' })
    expect(fake.requests.length - before).toBe(1)
    const sent = fake.received.at(-1)!
    expect(sent.query.get('page')).toBe('0')
    expect(sent.query.get('size')).toBe('500')
    expect(sent.headers['x-requested-with']).toBe('XMLHttpRequest')
    // The gateway says who it is; it does not pretend to be a browser.
    expect(sent.headers['user-agent']).not.toMatch(/Mozilla/)
  })

  it('credits the register and names the page read', async () => {
    const { json } = await gateway.call('anleggsregisteret', 'find_facilities', { municipality: 'Bærum' })
    expect(json._provenance.data.source_api).toBe(`${fake.baseUrl}${anleggsregisteretPaths.facilities}?page=0&size=500`)
    expect(json._provenance.upstreams.find((u: { id: string }) => u.id === 'anleggsregisteret')).toMatchObject({
      license: 'NLOD',
    })
    expect(v.is(v.array(v.object({ id: v.number() })), json.data.facilities)).toBe(true)
  })
})

describe('when Anleggsregisteret fails', () => {
  afterEach(() => fake.route(anleggsregisteretPaths.facilities, facilitiesRoute()))

  it.each([
    [
      'an error status',
      fakeReply.status(500, '{"status":500,"error":"Internal Server Error"}'),
      'upstream_error',
      /answered HTTP 500/,
    ],
    [
      'a login page',
      fakeReply.html('<!DOCTYPE html><html><body>Logg inn</body></html>'),
      'upstream_invalid_response',
      /not valid JSON/,
    ],
    ['a page without content', fakeReply.json({ last: true }), 'upstream_invalid_response', /unexpected shape/],
    [
      'an empty register',
      fakeReply.json({ content: [], last: true, totalPages: 0, totalElements: 0 }),
      'upstream_invalid_response',
      /implausible facility register \(0 items/,
    ],
  ])('answers %s with a 502 naming it, never an empty list', async (_name, reply, code, message) => {
    fake.route(anleggsregisteretPaths.facilities, () => reply)
    const { status, json, body } = await gatewayFor().call('anleggsregisteret', 'find_facilities', {
      municipality: 'Oslo',
    })
    expect(status).toBe(502)
    expect(json.error).toMatchObject({ code, upstream: 'anleggsregisteret' })
    expect(json.error.message).toMatch(/^Upstream Anleggsregisteret \(anleggsregisteret\) /)
    expect(json.error.message).toMatch(message)
    expect(body).not.toMatch(/\.ts:\d+/)
  })

  it('refuses a register that lost pages while it was read', async () => {
    fake.route(anleggsregisteretPaths.facilities, (url) => {
      const page = Number(url.searchParams.get('page'))
      return fakeReply.json({
        content: page === 0 ? [{ facilityId: 1, name: 'A', municipalityName: 'Oslo' }] : [],
        last: page >= 1,
        totalPages: 2,
        totalElements: 1000,
      })
    })
    const { status, json } = await gatewayFor().call('anleggsregisteret', 'find_facilities', { municipality: 'Oslo' })
    expect(status).toBe(502)
    expect(json.error.message).toMatch(/sent 1 facilities where its pages said 1000/)
  })
})
