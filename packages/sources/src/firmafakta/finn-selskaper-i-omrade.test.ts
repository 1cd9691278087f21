import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, fakeReply, type FakeUpstream, type TestGateway } from '@allmenning/core/testing'
import { recordedAddresses, startFakeKartverketAdresser } from '../geonorge/testing/fake-kartverket.js'
import { createRequestBudget } from '../shared/request-budget.js'
import { MAX_CANDIDATES, MAX_GEOCODING_CALLS } from './finn-selskaper-i-omrade.js'
import { firmafakta } from './index.js'
import { areaAdresser, areaEnheter, generateAreaCompanies } from './testing/area-fixtures.js'
import { brregFixtures, startFakeBrreg, type FakeBrreg } from './testing/fake-brreg.js'

// Stortorvet in Oslo; the area fixtures put ten companies within 1 km of it.
const STORTORVET = 'lat=59.913&lon=10.746'

type Company = {
  organization_id: string
  navn: string
  distance_km: number
  coordinates: { latitude: number; longitude: number }
}
const names = (json: { data: { companies: Company[] } }) => json.data.companies.map((c) => c.navn)

async function start(extra: ReturnType<typeof generateAreaCompanies> = { enheter: [], adresser: [] }) {
  const brreg = await startFakeBrreg({ enheter: [...brregFixtures().enheter, ...areaEnheter(), ...extra.enheter] })
  const kartverket = await startFakeKartverketAdresser({
    addresses: [...recordedAddresses, ...areaAdresser(), ...extra.adresser],
  })
  return { brreg, kartverket }
}

describe('finn_selskaper_i_omrade', () => {
  let brreg: FakeBrreg
  let kartverket: FakeUpstream
  let gateway: TestGateway
  beforeAll(async () => {
    ;({ brreg, kartverket } = await start())
    gateway = createTestGateway({ sources: firmafakta(), upstreams: { brreg, kartverket_adresser: kartverket } })
  })
  afterAll(async () => {
    await brreg.close()
    await kartverket.close()
  })
  afterEach(() => {
    kartverket.failWith(undefined)
    brreg.failWith(undefined)
  })
  const call = (query: string) => gateway.call('firmafakta', 'finn_selskaper_i_omrade', query)

  it('finds the companies within the radius, nearest first, with the fields and the point the public gateway’s clients read', async () => {
    const { status, json } = await call(`${STORTORVET}&radius_km=1&min_employees=10`)
    expect(status).toBe(200)
    expect(names(json)).toEqual([
      'STORTORVET HANDEL AS',
      // Two companies at Karl Johans gate 22: the larger first.
      'KARL JOHAN KONSULENTER AS',
      'KARL JOHAN REVISJON AS',
      'FJELLTOPP REVISJON AS',
      'RÅDHUSPLASSEN SERVERING AS',
      'TOLLBUGATA ARKITEKTER AS',
      'LEVIN DESIGN AS',
      'DNB BANK ASA',
    ])
    const distances = json.data.companies.map((c: Company) => c.distance_km)
    expect(distances).toEqual([...distances].sort((a, b) => a - b))
    expect(Math.max(...distances)).toBeLessThanOrEqual(1)
    expect(json.data.companies.at(-1)).toMatchObject({
      organization_id: '984851006',
      navn: 'DNB BANK ASA',
      antallAnsatte: 7210,
      naeringskode1: { kode: '64.190', beskrivelse: 'Banker og kredittforetak' },
      organisasjonsform: { kode: 'ASA', beskrivelse: 'Allmennaksjeselskap' },
      forretningsadresse: { adresse: ['Dronning Eufemias gate 30'], postnummer: '0191', kommunenummer: '0301' },
      coordinates: { latitude: 59.907683120518736, longitude: 10.759461893004211 },
      geocoded_address: 'Dronning Eufemias gate 30, 0191 OSLO',
    })
    for (const company of json.data.companies as Company[]) {
      expect(typeof company.coordinates.latitude).toBe('number')
      expect(typeof company.coordinates.longitude).toBe('number')
    }
    // Tollbugata 10 is placed at Kartverket's 10A (same street and number), never at the 14 beside it.
    expect(json.data.companies.find((c: Company) => c.navn === 'TOLLBUGATA ARKITEKTER AS').geocoded_address).toBe(
      'Tollbugata 10A, 0152 OSLO',
    )
    expect(json.data).toMatchObject({
      radius_km: 1,
      min_employees: 10,
      municipalities: [{ kommunenummer: '0301', kommunenavn: 'OSLO', matching: 12, examined: 12 }],
      municipalities_not_searched: [],
      matching: 12,
      examined: 12,
      placed: 10,
      // Norsk Hydro (5 km west) and Bryn Verksted (4 km east) are placed, and dropped.
      outside_radius: 2,
      unplaced: 2,
      unplaced_reasons: { no_address: 1, address_not_found: 1, not_looked_up: 0, lookup_failed: 0 },
      // Ten addresses: the two companies at Karl Johans gate 22 share one lookup, the post-office box needs none.
      geocoding_calls: 10,
      limits: { max_candidates: MAX_CANDIDATES, max_municipalities: 6, max_geocoding_calls: MAX_GEOCODING_CALLS },
      truncated: false,
      has_more_results: false,
    })
    expect(json.data.note).toContain('1 without a Norwegian street address, 1 not found')
    expect(brreg.calls.at(-1)).toMatchObject({
      path: '/enheter',
      query: { kommunenummer: '0301', fraAntallAnsatte: '10', konkurs: 'false', sort: 'antallAnsatte,DESC' },
      accept: 'application/vnd.brreg.enhetsregisteret.enhet.v2+json;charset=UTF-8',
    })
    expect(json.entities[0]).toMatchObject({ type: 'organization', id: '912347079', name: 'STORTORVET HANDEL AS' })
    expect(json._provenance.upstreams.map((u: { id: string }) => u.id).sort()).toEqual(['brreg', 'kartverket_adresser'])
    expect(gateway.errors).toEqual([])
  })

  it('remembers every address it looked up, found or not: asking again near by costs Kartverket no address search', async () => {
    await call(`${STORTORVET}&radius_km=1`)
    const searches = kartverket.hits('/sok')
    const { json } = await call(`${STORTORVET}&radius_km=1.5`)
    expect(json.data.geocoding_calls).toBe(0)
    expect(kartverket.hits('/sok')).toBe(searches)
    expect(json.data.unplaced_reasons).toMatchObject({ address_not_found: 1, no_address: 1 })
    expect(names(json)).toContain('DNB BANK ASA')
  })

  it('leaves out the companies below min_employees, through Brønnøysund’s own filter', async () => {
    const few = await call(`${STORTORVET}&radius_km=1&min_employees=0`)
    expect(names(few.json)).toContain('LITEN KIOSK AS')
    expect(brreg.calls.at(-1)?.query.fraAntallAnsatte).toBeUndefined()
    const many = await call(`${STORTORVET}&radius_km=1&min_employees=100`)
    expect(names(many.json)).toEqual(['KARL JOHAN KONSULENTER AS', 'DNB BANK ASA'])
  })

  it('searches every municipality the circle touches: at 10 km from Stortorvet also Bærum, where Fornebu lies', async () => {
    const { status, json } = await call(`${STORTORVET}&radius_km=10&limit=100`)
    expect(status).toBe(200)
    expect(json.data.municipalities.map((m: { kommunenummer: string }) => m.kommunenummer)).toEqual(['0301', '3201'])
    expect(brreg.calls.some((c) => c.path === '/enheter' && c.query.kommunenummer === '3201')).toBe(true)
    expect(names(json).slice(-3)).toEqual(['BRYN VERKSTED AS', 'NORSK HYDRO ASA', 'FORNEBU TEKNOLOGI AS'])
    expect(json.data.outside_radius).toBe(0)
  })

  it('pages the companies with limit and offset', async () => {
    const all = await call(`${STORTORVET}&radius_km=1&limit=100`)
    const first = await call(`${STORTORVET}&radius_km=1&limit=3&offset=0`)
    const second = await call(`${STORTORVET}&radius_km=1&limit=3&offset=3`)
    expect(first.json.data.has_more_results).toBe(true)
    expect([...names(first.json), ...names(second.json)]).toEqual(names(all.json).slice(0, 6))
  })

  it('answers a point where no address is near (at sea) with no companies and says why, without asking Brønnøysund', async () => {
    const before = brreg.requests.length
    const { status, json } = await call('lat=58.5&lon=3&radius_km=2')
    expect(status).toBe(200)
    expect(json.data).toMatchObject({ companies: [], municipalities: [], matching: 0, truncated: false })
    expect(json.data.note).toContain('at sea, or outside Norway')
    expect(brreg.requests.length).toBe(before)
  })

  it('answers 200 with what it could place when Kartverket fails for some addresses, and says so', async () => {
    const fresh = createTestGateway({ sources: firmafakta(), upstreams: { brreg, kartverket_adresser: kartverket } })
    await fresh.call('firmafakta', 'finn_selskaper_i_omrade', `${STORTORVET}&radius_km=1`)
    // Fornebu's address is the one not yet known to this source; the rest are remembered.
    kartverket.failWith(fakeReply.status(503, 'Service Unavailable'), { route: '/sok' })
    const { status, json } = await fresh.call('firmafakta', 'finn_selskaper_i_omrade', `${STORTORVET}&radius_km=10`)
    expect(status).toBe(200)
    expect(json.data.unplaced_reasons.lookup_failed).toBe(1)
    expect(json.data.truncated).toBe(true)
    expect(json.data.note).toContain("Kartverket's address search failed")
    expect(names(json)).toContain('DNB BANK ASA')
  })

  it('is a 502 naming Kartverket when its address search fails and nothing could be placed', async () => {
    const fresh = createTestGateway({ sources: firmafakta(), upstreams: { brreg, kartverket_adresser: kartverket } })
    kartverket.failWith(fakeReply.status(503, 'Service Unavailable'), { route: '/sok' })
    const { status, json } = await fresh.call('firmafakta', 'finn_selskaper_i_omrade', `${STORTORVET}&radius_km=1`)
    expect(status).toBe(502)
    expect(json.error).toMatchObject({ code: 'upstream_error', upstream: 'kartverket_adresser' })
  })

  it('is a 502 naming Brønnøysund when its search fails', async () => {
    // A fresh gateway: this one shares Brønnøysund's answers between calls for a while.
    const fresh = createTestGateway({ sources: firmafakta(), upstreams: { brreg, kartverket_adresser: kartverket } })
    brreg.failWith(500)
    const { status, json } = await fresh.call('firmafakta', 'finn_selskaper_i_omrade', `${STORTORVET}&radius_km=3`)
    expect(status).toBe(502)
    expect(json.error).toMatchObject({ upstream: 'brreg' })
  })

  it('answers bad input with a 400 naming the parameter, without calling an upstream', async () => {
    const before = [brreg.requests.length, kartverket.requests.length]
    const cases: [string, string][] = [
      ['lon=10.7', 'lat'],
      ['lat=91&lon=10.7', 'lat'],
      [`${STORTORVET}&radius_km=0`, 'radius_km'],
      [`${STORTORVET}&radius_km=21`, 'radius_km'],
      [`${STORTORVET}&min_employees=-1`, 'min_employees'],
      [`${STORTORVET}&min_employees=2.5`, 'min_employees'],
      [`${STORTORVET}&limit=101`, 'limit'],
    ]
    for (const [query, parameter] of cases) {
      const { status, json } = await call(query)
      expect(status, query).toBe(400)
      expect(json.error.details[0].parameter, query).toBe(parameter)
    }
    expect([brreg.requests.length, kartverket.requests.length]).toEqual(before)
  })
})

describe('finn_selskaper_i_omrade at its caps', () => {
  // 130 generated companies within 0.7 km of Stortorvet, each at its own address, larger than the fixtures but DNB.
  const area = generateAreaCompanies(130)
  let fakes: Awaited<ReturnType<typeof start>>
  beforeAll(async () => {
    fakes = await start(area)
  })
  afterAll(async () => {
    await fakes.brreg.close()
    await fakes.kartverket.close()
  })

  it('examines the 100 largest, looks up at most 50 addresses a request, says what it left out, and fills in on later requests', async () => {
    // A budget that never makes the test wait: the per-request cap is what is tested here.
    const budget = createRequestBudget({ requests: 1000, perMs: 1000, maxWaitMs: 0 })
    const gateway = createTestGateway({
      sources: firmafakta({ kartverketBudget: budget }),
      upstreams: { brreg: fakes.brreg, kartverket_adresser: fakes.kartverket },
    })
    const call = (radius: number) =>
      gateway.call('firmafakta', 'finn_selskaper_i_omrade', `${STORTORVET}&radius_km=${radius}&limit=100`)
    const first = await call(1)
    expect(first.status).toBe(200)
    expect(first.json.data).toMatchObject({
      matching: 142,
      examined: MAX_CANDIDATES,
      geocoding_calls: MAX_GEOCODING_CALLS,
      // DNB, Norsk Hydro and 98 generated companies: 100 addresses, half of them looked up.
      placed: 50,
      unplaced: 50,
      unplaced_reasons: { no_address: 0, address_not_found: 0, not_looked_up: 50, lookup_failed: 0 },
      truncated: true,
    })
    expect(first.json.data.note).toContain(
      'Brønnøysund counts 142 companies with at least 10 employees in OSLO (0301); the 100 largest were examined (at most 100 a request)',
    )
    expect(first.json.data.note).toContain('50 companies were not placed because at most 50 addresses are looked up')
    expect(fakes.brreg.calls.at(-1)?.query).toMatchObject({ page: '0', size: '100' })

    const second = await call(1.2)
    expect(second.json.data).toMatchObject({ geocoding_calls: 50, placed: 100, unplaced: 0, truncated: true })
    expect(second.json.data.note).not.toContain('not placed')
    const third = await call(1.3)
    expect(third.json.data.geocoding_calls).toBe(0)
    expect(third.json.data.companies.length).toBeGreaterThan(first.json.data.companies.length)
  })

  it('stops looking up addresses when the shared request budget for Kartverket is spent, and says so', async () => {
    // Room for the samples of the circle and a few addresses, and no waiting for more.
    const budget = createRequestBudget({ requests: 12, perMs: 60_000, maxWaitMs: 0 })
    const gateway = createTestGateway({
      sources: firmafakta({ kartverketBudget: budget }),
      upstreams: { brreg: fakes.brreg, kartverket_adresser: fakes.kartverket },
    })
    const { status, json } = await gateway.call('firmafakta', 'finn_selskaper_i_omrade', `${STORTORVET}&radius_km=1`)
    expect(status).toBe(200)
    // The circle's centre and eight rim points took 9 of the 12.
    expect(json.data.geocoding_calls).toBe(3)
    expect(json.data.unplaced_reasons.not_looked_up).toBe(97)
    expect(json.data.note).toContain("the gateway's request budget for Kartverket was spent")
    expect(json.data.truncated).toBe(true)
  })
})
