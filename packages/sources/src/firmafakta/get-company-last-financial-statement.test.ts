import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, fakeReply, type FakeUpstream, type TestGateway } from '@allmenning/core/testing'
import { firmafakta } from './index.js'
import { startFakeBrreg, type FakeBrreg } from './testing/fake-brreg.js'
import { startFakeRegnskapsregisteret } from './testing/fake-regnskapsregisteret.js'

describe('get_company_last_financial_statement', () => {
  let brreg: FakeBrreg
  let regnskap: FakeUpstream
  let gateway: TestGateway
  beforeAll(async () => {
    brreg = await startFakeBrreg()
    regnskap = await startFakeRegnskapsregisteret()
    gateway = createTestGateway({ sources: firmafakta(), upstreams: { brreg, brreg_regnskap: regnskap } })
  })
  afterAll(async () => {
    await brreg.close()
    await regnskap.close()
  })

  const call = (query: string) => gateway.call('firmafakta', 'get_company_last_financial_statement', query)

  it('maps the statement: the register’s misspelt keys read, the currency stated, an empty line null', async () => {
    const { status, json } = await call('org_nr=976030788')
    expect(status).toBe(200)
    expect(json.data).toMatchObject({
      organisasjonsnummer: '976030788',
      regnskapsaar: '2024',
      regnskapsperiode: { fraDato: '2024-01-01', tilDato: '2024-12-31' },
      valuta: 'NOK',
      regnskapstype: 'SELSKAP',
      oppstillingsplan: 'smaa',
      regnskapsprinsipper: { smaaForetak: true, regnskapsregler: 'regnskapslovenAlminneligRegler' },
      resultatregnskap: {
        sumDriftsinntekter: 9854120,
        driftsresultat: 421294,
        aarsresultat: 321656,
        nettoFinans: -8914,
      },
      balanse: {
        sumInnskuttEgenkapital: 100000,
        sumLangsiktigGjeld: null,
        sumKortsiktigGjeld: 1714245,
        sumEiendeler: 3120455,
      },
    })
    expect(json._provenance.data.source_api).toBe(`${regnskap.baseUrl}/976030788`)
    expect(json.entities[0]).toMatchObject({ type: 'organization', id: '976030788' })
    expect(regnskap.received.at(-1)?.headers.accept).toBe('application/json')
  })

  it('answers a company filing in USD with its currency, its own accounts before the group’s, no revenue line as null', async () => {
    const { json } = await call('org_nr=912346161')
    expect(json.data).toMatchObject({
      valuta: 'USD',
      regnskapstype: 'SELSKAP',
      resultatregnskap: { sumDriftsinntekter: null, totalresultat: null, aarsresultat: 4064034 },
      balanse: { sumKortsiktigGjeld: null, sumLangsiktigGjeld: 13000000 },
    })
  })

  it('is an honest 404 when the register has no statement, whether it says so with 404 or with []', async () => {
    for (const orgNr of ['912345602', '912345742']) {
      const { status, json } = await call(`org_nr=${orgNr}`)
      expect(status, orgNr).toBe(404)
      expect(json.error).toMatchObject({
        code: 'entity_not_found',
        message: `No financial statement for organisation number ${orgNr} in Regnskapsregisteret`,
      })
    }
  })

  it('answers a bad org_nr with a 400 naming it, without calling the register', async () => {
    const before = regnskap.requests.length
    const { status, json } = await call('org_nr=976030789')
    expect(status).toBe(400)
    expect(json.error.details[0]).toMatchObject({ parameter: 'org_nr', rule: 'check' })
    expect(regnskap.requests.length).toBe(before)
  })

  it('is a 502 naming Regnskapsregisteret when it fails or sends something else than statements', async () => {
    regnskap.failWith(fakeReply.status(503), { times: 1 })
    const down = await call('org_nr=991234578')
    expect(down.status).toBe(502)
    expect(down.json.error.message).toContain('Regnskapsregisteret')
    regnskap.failWith(fakeReply.json({ regnskap: 'nei' }), { times: 1 })
    const odd = await call('org_nr=991234586')
    expect(odd.status).toBe(502)
    expect(odd.json.error.message).toContain('Regnskapsregisteret')
  })

  it('is cached for a day: accounts are filed once a year', async () => {
    const { headers } = await call('org_nr=976030788')
    expect(headers['cache-control']).toMatch(/max-age=86400\b/)
  })
})
