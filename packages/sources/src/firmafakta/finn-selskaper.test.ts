import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, fakeReply, type TestGateway } from '@allmenning/core/testing'
import { createGateway } from '@allmenning/core'
import { firmafakta } from './index.js'
import { startFakeBrreg, type FakeBrreg } from './testing/fake-brreg.js'

describe('finn_selskaper', () => {
  let fake: FakeBrreg
  let gateway: TestGateway
  beforeAll(async () => {
    fake = await startFakeBrreg()
    gateway = createTestGateway({ sources: firmafakta(), upstreams: { brreg: fake } })
  })
  afterAll(() => fake.close())

  const call = (query: string) => gateway.call('firmafakta', 'finn_selskaper', query)
  const names = (json: { data: { selskaper: { navn: string }[] } }) => json.data.selskaper.map((unit) => unit.navn)

  it('finds the companies of one municipality, largest first, in the list shape with has_more_results', async () => {
    const { status, json } = await call('kommunenummer=5001')
    expect(status).toBe(200)
    expect(names(json)).toEqual(['SESAM BAKERI AS', 'SESAM AS'])
    expect(json.data).toMatchObject({ total: 2, note: null, has_more_results: false })
    expect(json.data.selskaper[0]).toMatchObject({
      organisasjonsnummer: '912345602',
      enhetstype: 'hovedenhet',
      naeringskode1: { kode: '10.710' },
    })
    expect(fake.calls.at(-1)).toMatchObject({
      path: '/enheter',
      query: { kommunenummer: '5001', sort: 'antallAnsatte,DESC' },
    })
    expect(json.entities[0]).toMatchObject({ type: 'organization', id: '912345602', name: 'SESAM BAKERI AS' })
  })

  it('filters by industry code, organisation form and employee range, sending Brønnøysund its own parameter names', async () => {
    const { json } = await call(
      'naeringskode=56.101&organisasjonsform=as,%20ANS&fra_antall_ansatte=5&til_antall_ansatte=50',
    )
    expect(names(json)).toEqual(['NORDLYS KAFÉDRIFT AS', 'SESAM AS'])
    expect(json.parameters).toMatchObject({
      naeringskode: '56.101',
      organisasjonsform: 'AS,ANS',
      fra_antall_ansatte: 5,
      til_antall_ansatte: 50,
    })
    expect(fake.calls.at(-1)?.query).toMatchObject({
      naeringskode: '56.101',
      organisasjonsform: 'AS,ANS',
      fraAntallAnsatte: '5',
      tilAntallAnsatte: '50',
    })
  })

  it('keeps Brønnøysund’s relevance order for a name search', async () => {
    const { json } = await call('navn=sesam&organisasjonsform=AS')
    expect(names(json)).toEqual(['SESAM BAKERI AS', 'BAKERI SESAM AS', 'SESAMSTASJONEN AS', 'SESAM AS'])
    expect(fake.calls.at(-1)?.query.sort).toBeUndefined()
  })

  it('pages with limit and offset mapped onto page and size, has_more_results true until the last row', async () => {
    const first = await call('organisasjonsform=AS&limit=2&offset=0')
    const second = await call('organisasjonsform=AS&limit=2&offset=2')
    expect(first.json.data.has_more_results).toBe(true)
    const all = await call('organisasjonsform=AS&limit=100')
    expect([...names(first.json), ...names(second.json)]).toEqual(names(all.json).slice(0, 4))
    const last = await call(`organisasjonsform=AS&limit=2&offset=${all.json.data.total - 2}`)
    expect(last.json.data.has_more_results).toBe(false)
    expect(names(last.json)).toEqual(names(all.json).slice(-2))
  })

  it('says why an industry code found nothing', async () => {
    const { status, json } = await call('naeringskode=55.301')
    expect(status).toBe(200)
    expect(json.data.selskaper).toEqual([])
    expect(json.data.note).toContain('SN2025')
  })

  it('answers bad input with a 400 naming the parameter, without calling Brønnøysund', async () => {
    const before = fake.requests.length
    const cases: [string, string][] = [
      ['', 'kommunenummer'],
      ['kommunenummer=301', 'kommunenummer'],
      ['naeringskode=56.1011', 'naeringskode'],
      ['organisasjonsform=A1', 'organisasjonsform'],
      ['kommunenummer=0301&fra_antall_ansatte=-1', 'fra_antall_ansatte'],
      ['kommunenummer=0301&fra_antall_ansatte=10&til_antall_ansatte=5', 'til_antall_ansatte'],
      ['kommunenummer=0301&offset=9990&limit=25', 'offset'],
    ]
    for (const [query, parameter] of cases) {
      const { status, json } = await call(query)
      expect(status, query).toBe(400)
      expect(json.error.details[0].parameter, query).toBe(parameter)
    }
    expect(fake.requests.length).toBe(before)
  })

  it('answers a filter value Brønnøysund refuses with a 400 naming the filter, not a 502', async () => {
    fake.upstream.failWith(
      fakeReply.json(
        {
          status: 400,
          feilmelding: 'Ugyldig forespørsel',
          valideringsfeil: [
            { feilmelding: 'Ugyldig organisasjonsform', parametere: ['organisasjonsform'], feilaktigVerdi: 'XYZ' },
          ],
        },
        { status: 400 },
      ),
      { times: 1 },
    )
    const { status, json } = await call('organisasjonsform=XYZ')
    expect(status).toBe(400)
    expect(json.error.details[0]).toMatchObject({ parameter: 'organisasjonsform', rule: 'enum' })
  })

  it('is a 502 naming Brønnøysund when the search fails', async () => {
    fake.failWith(503, 1)
    const { status, json } = await call('kommunenummer=4601')
    expect(status).toBe(502)
    expect(json.error.message).toContain('Brønnøysundregistrene Enhetsregisteret')
  })

  it('lists companies that entity search then finds by their number', async () => {
    const { json } = await call('kommunenummer=4601')
    const found = json.data.selskaper[0]
    const search = createGateway({
      sources: [firmafakta()],
      upstreams: { brreg: { baseUrl: fake.baseUrl } },
      onError: () => {},
    })
    const res = await search.handle({
      method: 'GET',
      path: '/api/v1/sok/alle',
      query: `q=${found.organisasjonsnummer}&mode=entities`,
      headers: {},
    })
    const answer = JSON.parse(res.body!)
    expect(answer.results[0]).toMatchObject({ type: 'organization', id: found.organisasjonsnummer, name: found.navn })
  })
})
