import { outlineOf } from '@allmenning/core/source'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeBrreg, type FakeBrreg } from './testing/fake-brreg.js'
import { overrideUpstreams } from '@allmenning/core'
import { createTestGateway, type TestGateway } from '@allmenning/core/testing'
import { firmafakta } from './index.js'

describe('firmafakta source definition', () => {
  it('calls the real Enhetsregisteret, Regnskapsregisteret and Kartverket address API by default, through the upstream ids brreg, brreg_regnskap and kartverket_adresser', () => {
    const source = firmafakta()
    expect(source.id).toBe('firmafakta')
    expect(source.upstreams).toEqual([
      {
        id: 'brreg',
        name: 'Brønnøysundregistrene Enhetsregisteret',
        baseUrl: 'https://data.brreg.no/enhetsregisteret/api',
        publisher: 'Brønnøysundregistrene',
        license: 'NLOD 2.0',
        maxBodyBytes: 512 * 1024,
      },
      {
        id: 'brreg_regnskap',
        name: 'Brønnøysundregistrene Regnskapsregisteret',
        baseUrl: 'https://data.brreg.no/regnskapsregisteret/regnskap',
        publisher: 'Brønnøysundregistrene',
        license: 'NLOD 2.0',
        maxBodyBytes: 64 * 1024,
      },
      // Shared with geonorge and the other sources that place points: one override, one breaker.
      {
        id: 'kartverket_adresser',
        name: 'Kartverket address API',
        baseUrl: 'https://ws.geonorge.no/adresser/v1',
        publisher: 'Kartverket (Norwegian Mapping Authority)',
        license: 'CC BY 4.0',
      },
    ])
  })

  it('takes a base URL and a time limit', () => {
    const source = overrideUpstreams(firmafakta(), { brreg: { baseUrl: 'http://127.0.0.1:9/api', timeoutMs: 1500 } })
    expect(source.upstreams[0]).toMatchObject({ baseUrl: 'http://127.0.0.1:9/api', timeoutMs: 1500 })
  })

  it('declares the twelve operations of spec 4.4, company search, the companies near a point and the last accounts, the datasets eight of them read, and the business-source metadata', () => {
    const source = firmafakta()
    expect(outlineOf(source.operations).map((operation) => operation.name)).toEqual([
      'organisasjonsnummer_for_selskap',
      'personinformasjon',
      'selskapsdetaljer',
      'roller_i_enhet',
      'underenheter_for_selskap',
      'finn_selskaper',
      'finn_selskaper_i_omrade',
      'get_company_last_financial_statement',
      'aksjeeiere_for_selskap',
      'selskapets_aksjeposter',
      'aksjeposter_for_person',
      'tildelinger_for_selskap',
      'eu_tildelinger_for_selskap',
      'forskningsradet_tildelinger_for_selskap',
      'skattefunnprosjekter_for_selskap',
    ])
    expect(source.datasets?.map((dataset) => [dataset.id, dataset.origin.kind, dataset.license])).toEqual([
      ['aksjonaerregisteret', 'order', 'NLOD 2.0'],
      ['innovasjon_norge_tildelinger', 'download', 'NLOD 2.0'],
      ['cordis', 'download', 'CC BY 4.0'],
      ['forskningsradet_soknader', 'download', 'NLOD 2.0'],
      ['skattefunn', 'download', 'NLOD 2.0'],
      ['brreg_roller', 'download', 'NLOD 2.0'],
    ])
    expect(source).toMatchObject({
      topic: 'business',
      contentLanguages: ['no'],
      limit: { default: 25, max: 100 },
    })
    expect(source.keywords).toEqual(expect.arrayContaining(['selskap', 'organisasjonsnummer', 'company', 'roller']))
    expect(source.synonyms).toEqual(expect.arrayContaining(['brreg', 'orgnr']))
  })
})

describe('firmafakta behind the gateway', () => {
  let fake: FakeBrreg
  let gateway: TestGateway
  beforeAll(async () => {
    fake = await startFakeBrreg()
    gateway = createTestGateway({ sources: firmafakta(), upstreams: { brreg: fake } })
  })
  afterAll(() => fake.close())

  const call = (operation: string, query: string) => gateway.call('firmafakta', operation, query)

  it('rejects an org_nr with a wrong check digit as a 400 naming the rule, without calling Brønnøysund', async () => {
    const before = fake.requests.length
    const { status, json } = await call('selskapsdetaljer', 'org_nr=976030789')
    expect(status).toBe(400)
    expect(json.error.details).toEqual([
      { parameter: 'org_nr', problem: 'fails the organisation-number check digit (MOD11)', rule: 'check' },
    ])
    const short = await call('selskapsdetaljer', 'org_nr=97603078')
    expect(short.json.error.details).toEqual([
      { parameter: 'org_nr', problem: 'must be exactly 9 characters long', rule: 'length' },
    ])
    expect(fake.requests.length).toBe(before)
  })

  it('answers details with provenance naming the Brønnøysund URL and the organisation entity', async () => {
    const { status, json } = await call('selskapsdetaljer', 'org_nr=976030788')
    expect(status).toBe(200)
    expect(json.data.navn).toBe('SESAM AS')
    expect(json._provenance.data.source_api).toBe(`${fake.baseUrl}/enheter/976030788`)
    expect(json.entities[0]).toMatchObject({ type: 'organization', id: '976030788', name: 'SESAM AS' })
  })

  it('answers an unknown number with a 404 entity_not_found', async () => {
    const { status, json } = await call('selskapsdetaljer', 'org_nr=100000040')
    expect(status).toBe(404)
    expect(json.error).toMatchObject({
      code: 'entity_not_found',
      message: 'No entity with organisation number 100000040 in Enhetsregisteret',
    })
  })

  it('answers a removed company with 200 and status removed', async () => {
    const { status, json } = await call('selskapsdetaljer', 'org_nr=912346374')
    expect(status).toBe(200)
    expect(json.data).toMatchObject({ status: 'removed', slettedato: '2017-10-20' })
  })

  it('answers a company deleted the way Brønnøysund really says it (200 + SlettetEnhet), and its roles, as removed', async () => {
    const details = await call('selskapsdetaljer', 'org_nr=912346455')
    expect(details.status).toBe(200)
    expect(details.json.data).toMatchObject({ status: 'removed', slettedato: '2025-06-30' })
    const roles = await call('roller_i_enhet', 'org_nr=912346455')
    expect(roles.status).toBe(200)
    expect(roles.json.data).toEqual({
      organisasjonsnummer: '912346455',
      status: 'removed',
      slettedato: '2025-06-30',
      rollegrupper: [],
    })
  })

  it('describes the register fields it carries in the operation schema', async () => {
    const details = await gateway.get('/api/v1/kilder/firmafakta/selskapsdetaljer/schema')
    expect(details.json.output_fields).toEqual(
      expect.arrayContaining([
        'kapital.belop',
        'kapital.antallAksjer',
        'erIKonsern',
        'historiskeNavn[].fraDato',
        'vedtektsdato',
        'registreringsdatoForetaksregisteret',
        'tvangsopplostPgaManglendeRegnskapDato',
        'fravalgRevisjonDato',
        'datoEierskifte',
        'hjelpeenhetskode.kode',
        'paategninger[].tekst',
      ]),
    )
    const roles = await gateway.get('/api/v1/kilder/firmafakta/roller_i_enhet/schema')
    expect(roles.json.output_fields).toEqual(
      expect.arrayContaining([
        'rollegrupper[].roller[].postadresse.poststed',
        'rollegrupper[].roller[].godkjenningsstatus',
      ]),
    )
  })

  it('pages a name search with limit and offset', async () => {
    const { status, json } = await call('organisasjonsnummer_for_selskap', 'company_name=Sesam&limit=2&offset=0')
    expect(status).toBe(200)
    expect(json.data.map((hit: { navn: string }) => hit.navn)).toEqual(['SESAM AS', 'SESAM BAKERI AS'])
    expect(json.parameters).toEqual({ company_name: 'Sesam', limit: 2, offset: 0 })
    expect(json._meta.pagination).toMatchObject({ limit: 2, offset: 0, returned: 2, has_more_results: true })
  })

  it('is a 502 naming Brønnøysund when it fails', async () => {
    fake.failWith(500, 1)
    const { status, json } = await call('roller_i_enhet', 'org_nr=976030788')
    expect(status).toBe(502)
    expect(json.error.message).toContain('brreg')
  })
})
