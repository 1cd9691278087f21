import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fakeReply, testUpstreamClient, type FakeUpstream } from '@allmenning/core/testing'
import { createRequestBudget } from '../shared/request-budget.js'
import { organisationNumberIn } from './organisation-number.js'
import { udirNsr } from './udir-upstreams.js'
import { parseUnitDetail, parseUnitList, withFlagAliases } from './unit-payloads.js'
import { createUnitRegister } from './unit-register.js'
import { listItem, nsrUnits, startFakeNsr } from './testing/fake-udir.js'

const budget = () => createRequestBudget({ requests: 1000, perMs: 1000, maxWaitMs: 0 })

describe('the payloads', () => {
  it('reads a v4 page and a bare list as v3 and older clients spell it (Orgnr, Kommunenr, ErGrunnSkole)', () => {
    const page = parseUnitList(
      { Sidenummer: 1, AntallSider: 2, TotaltAntallEnheter: 9, EnhetListe: nsrUnits.slice(0, 2).map(listItem) },
      udirNsr,
      'nsr',
    )
    expect(page).toMatchObject({ page: 1, pageCount: 2, total: 9, withoutId: 0 })
    expect(page.units[0]).toMatchObject({
      orgnr: '971200006',
      municipalityNumber: '0301',
      countyNumber: '03',
      active: true,
    })
    const bare = parseUnitList(
      [
        {
          Orgnr: '971200006',
          Navn: 'Bislett skole',
          Kommunenr: '0301',
          Fylkesnr: '03',
          ErAktiv: true,
          ErGrunnSkole: true,
        },
        { Navn: 'Uten nummer' },
      ],
      udirNsr,
      'nsr',
    )
    expect(bare.units[0]).toMatchObject({
      orgnr: '971200006',
      municipalityNumber: '0301',
      flags: { ErAktiv: true, ErGrunnSkole: true },
    })
    expect(bare.withoutId).toBe(1)
    expect(withFlagAliases(bare.units[0]!.flags)).toMatchObject({ ErGrunnskole: true, ErGrunnSkole: true })
  })

  it("reads (0, 0) as no position, a decimal comma as a number, and v4's Postnummer as the post code", () => {
    const base = nsrUnits[0]!
    expect(
      parseUnitDetail({ ...base, Koordinat: { Breddegrad: 0, Lengdegrad: 0, Zoom: 0, GeoKilde: 'Undefined' } }, udirNsr)
        .position,
    ).toMatchObject({ lat: null, lon: null })
    const comma = parseUnitDetail(
      { ...base, Koordinat: { Breddegrad: '59,9255', Lengdegrad: '10,7352', Zoom: 15, GeoKilde: 'GeoNorge' } },
      udirNsr,
    )
    expect(comma.position).toMatchObject({
      lat: 59.9255,
      lon: 10.7352,
      address: { Adresse: 'Theresesgate 12', Postnr: '0168', Poststed: 'OSLO' },
    })
  })

  it('refuses a record of another shape with a 502 naming the register', () => {
    expect(() => parseUnitDetail({ Navn: 42 }, udirNsr)).toThrow(/Udir Nasjonalt skoleregister/)
  })

  it('recognises organisation numbers by their check digit', () => {
    expect(organisationNumberIn('971 200 006')).toBe('971200006')
    expect(organisationNumberIn('971200007')).toBeUndefined()
    expect(organisationNumberIn('Bislett')).toBeUndefined()
  })
})

describe('the register', () => {
  let fake: FakeUpstream
  beforeAll(async () => {
    fake = await startFakeNsr()
  })
  afterAll(() => fake.close())

  it('reads a unit again when its list says it changed after its record was read', async () => {
    let clock = Date.parse('2026-11-28T10:00:00Z')
    const register = createUnitRegister({ budget: budget(), listTtlMs: 1000, now: () => clock })
    const client = testUpstreamClient(udirNsr, fake.baseUrl)
    const oslo = { kind: 'kommune', number: '0301' } as const
    const before = fake.requests.length
    const first = await register.list(client, 'nsr', oslo)
    await register.fill(client, first.units)
    const detailCalls = () => fake.requests.slice(before).filter((path) => path.includes('/enhet/')).length
    expect(detailCalls()).toBe(first.units.length)
    const bislett = first.units.find((u) => u.orgnr === '971200006')!
    expect(register.state(bislett)).toBe('known')

    // Bislett moves: the list's DatoEndret is newer than the record read.
    const moved = {
      ...nsrUnits[0]!,
      DatoEndret: '2026-11-27T08:00:00+01:00',
      Koordinat: { Breddegrad: 59.93, Lengdegrad: 10.74, Zoom: 15, GeoKilde: 'GeoNorge' },
    }
    fake.route('/enheter/kommune/{nr}', () =>
      fakeReply.json({ Sidenummer: 1, AntallSider: 1, EnhetListe: [listItem(moved)] }),
    )
    fake.route('/enhet/{orgnr}', () => fakeReply.json(moved))
    clock += 2000
    // The stale list is answered once more while it is read again in the background.
    await register.list(client, 'nsr', oslo)
    await new Promise((resolve) => setTimeout(resolve, 50))
    const second = await register.list(client, 'nsr', oslo)
    expect(register.state(second.units[0]!)).toBe('pending')
    await register.fill(client, second.units)
    expect(register.position('971200006')?.position).toMatchObject({ lat: 59.93, lon: 10.74 })
  })

  it('leaves the units the budget has no room for pending, and reads them in a later request', async () => {
    const register = createUnitRegister({ budget: createRequestBudget({ requests: 2, perMs: 60_000, maxWaitMs: 0 }) })
    const client = testUpstreamClient(udirNsr, fake.baseUrl)
    const units = nsrUnits.slice(0, 5).map((u) => parseUnitList([listItem(u)], udirNsr, 'nsr').units[0]!)
    await register.fill(client, units)
    expect(units.map((u) => register.state(u)).filter((s) => s === 'pending')).toHaveLength(3)
  })
})
