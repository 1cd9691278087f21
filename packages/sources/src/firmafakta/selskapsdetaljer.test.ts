import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeBrreg, type FakeBrreg } from './testing/fake-brreg.js'
import { GatewayError } from '@allmenning/core'
import { UpstreamError } from '@allmenning/core/source'
import { selskapsdetaljer as operation } from './selskapsdetaljer.js'
import { testContext } from './testing/test-context.js'

describe('selskapsdetaljer', () => {
  let fake: FakeBrreg
  beforeAll(async () => {
    fake = await startFakeBrreg()
  })
  afterAll(() => fake.close())

  const run = (org_nr: string) => {
    const ctx = testContext(fake.baseUrl, 'selskapsdetaljer')
    return operation.run({ org_nr, limit: 25, offset: 0 }, ctx).then((result) => ({ result, ctx }))
  }

  it('maps an active company, with every key present and _links dropped', async () => {
    const { result, ctx } = await run('976030788')
    expect(() => v.parse(operation.output, result.data)).not.toThrow()
    expect(result.data).toMatchObject({
      organisasjonsnummer: '976030788',
      navn: 'SESAM AS',
      enhetstype: 'hovedenhet',
      status: 'active',
      slettedato: null,
      organisasjonsform: { kode: 'AS', beskrivelse: 'Aksjeselskap' },
      // Brønnøysund's own field, which clients of the public gateway read directly.
      naeringskode1: { kode: '56.101', beskrivelse: 'Drift av restauranter og kafeer' },
      naeringskode2: null,
      naeringskoder: [{ kode: '56.101', beskrivelse: 'Drift av restauranter og kafeer' }],
      antallAnsatte: 10,
      forretningsadresse: {
        adresse: ['Elgeseter gate 1'],
        postnummer: '7030',
        poststed: 'TRONDHEIM',
        kommune: 'TRONDHEIM',
        kommunenummer: '5001',
        land: 'Norge',
        landkode: 'NO',
      },
      postadresse: { adresse: ['Postboks 123 Sentrum'], postnummer: '7401' },
      beliggenhetsadresse: null,
      hjemmeside: 'www.sesam-trondheim.no',
      stiftelsesdato: '1995-12-12',
      konkurs: false,
      sisteInnsendteAarsregnskap: '2022',
      aktivitet: [],
    })
    expect(JSON.stringify(result.data)).not.toContain('_links')
    expect(result.sourceApi).toBe(`${fake.baseUrl}/enheter/976030788`)
    expect(ctx.calls).toEqual([`${fake.baseUrl}/enheter/976030788`])
    expect(fake.calls.at(-1)?.accept).toBe('application/vnd.brreg.enhetsregisteret.enhet.v2+json;charset=UTF-8')
  })

  it('keeps what the register does not know as null: no headcount, no business address', async () => {
    const { result } = await run('912346307')
    expect(result.data).toMatchObject({
      antallAnsatte: null,
      harRegistrertAntallAnsatte: false,
      forretningsadresse: null,
      konkurs: true,
      konkursdato: '2024-11-02',
    })
    expect(result.data.postadresse?.adresse).toEqual(['c/o Advokatfirma Bostyrer AS', 'Postboks 44'])
  })

  it('answers a removed company (410) truthfully as data, not as an error', async () => {
    const { result } = await run('912346374')
    expect(() => v.parse(operation.output, result.data)).not.toThrow()
    expect(result.data).toMatchObject({
      organisasjonsnummer: '912346374',
      navn: 'SLETTET ENHET AS',
      status: 'removed',
      slettedato: '2017-10-20',
      organisasjonsform: { kode: 'AS', beskrivelse: 'Aksjeselskap' },
      forretningsadresse: null,
      naeringskode1: null,
      naeringskoder: [],
    })
  })

  it('answers a deleted company as removed: Brønnøysund sends it with 200 and respons_klasse SlettetEnhet', async () => {
    const { result } = await run('912346455')
    expect(() => v.parse(operation.output, result.data)).not.toThrow()
    expect(result.data).toMatchObject({
      organisasjonsnummer: '912346455',
      navn: 'TRESKO HANDEL AS',
      enhetstype: 'hovedenhet',
      status: 'removed',
      slettedato: '2025-06-30',
      organisasjonsform: { kode: 'AS', beskrivelse: 'Aksjeselskap' },
      historiskeNavn: [{ navn: 'TRESKO IMPORT AS', fraDato: '2008-04-22 11:05:43', tilDato: '2018-10-02 16:30:08' }],
      konkurs: null,
      kapital: null,
      naeringskoder: [],
    })
    expect(fake.calls.at(-1)?.path).toBe('/enheter/912346455')
  })

  it('answers a deleted sub-unit as removed, with slettedato and nedleggelsesdato', async () => {
    const { result } = await run('812346318')
    expect(result.data).toMatchObject({
      enhetstype: 'underenhet',
      navn: 'NORDLYS KAFÉDRIFT AS AVD HARSTAD',
      status: 'removed',
      slettedato: '2024-11-18',
      nedleggelsesdato: '2024-09-30',
      overordnetEnhet: null,
      historiskeNavn: [{ navn: 'NORDLYS KAFÉ AS HARSTAD' }],
    })
  })

  it("carries capital, group membership, earlier names and register dates under the register's names", async () => {
    const { result } = await run('912346021')
    expect(result.data).toMatchObject({
      status: 'active',
      kapital: { belop: 120000, antallAksjer: 1200, type: 'Aksjekapital', valuta: 'NOK', innfortDato: '2016-02-03' },
      erIKonsern: true,
      historiskeNavn: [{ navn: 'NORDLYS KAFÉ AS', fraDato: '2011-05-20 14:02:11', tilDato: '2016-02-03 09:41:27' }],
      vedtektsdato: '2016-01-28',
      registreringsdatoForetaksregisteret: '2011-05-20',
      registreringsdatoMerverdiavgiftsregisteret: '2011-07-01',
      registreringsdatoAntallAnsatteNAVAaregisteret: '2025-03-10',
      vedtektsfestetFormaal: ['Drift av kafeer og serveringssteder, og det som naturlig hører', 'sammen med dette.'],
      registrertIPartiregisteret: false,
      paategninger: [],
      fravalgRevisjonDato: null,
    })
    const holding = await run('912346161')
    expect(holding.result.data).toMatchObject({
      epostadresse: 'post@kystlinje-holding.no',
      hjelpeenhetskode: { kode: '70.100', beskrivelse: 'Hovedkontortjenester' },
      fravalgRevisjonDato: '2014-09-02',
      fravalgRevisjonBeslutningsDato: '2014-08-20',
    })
    const branch = await run('812345605')
    expect(branch.result.data).toMatchObject({
      datoEierskifte: '2016-02-01',
      historiskeNavn: [{ navn: 'NORDLYS KAFÉ AS TORGET' }],
    })
  })

  it('carries a forced dissolution for want of accounts', async () => {
    const { result } = await run('912346471')
    expect(result.data).toMatchObject({
      status: 'active',
      underTvangsavviklingEllerTvangsopplosning: true,
      tvangsopplostPgaManglendeRegnskapDato: '2025-05-20',
      naeringskode1: { kode: '00.000', beskrivelse: 'Uoppgitt' },
    })
  })

  it("keeps a NUF's foreign business address, which has no postnummer and no kommune", async () => {
    const { result } = await run('912346463')
    expect(() => v.parse(operation.output, result.data)).not.toThrow()
    expect(result.data.forretningsadresse).toEqual({
      adresse: ['Norra Hamngatan 9'],
      postnummer: null,
      poststed: 'SE-411 05 Göteborg',
      kommune: null,
      kommunenummer: null,
      land: 'Sverige',
      landkode: 'SE',
    })
    expect(result.data.postadresse).toMatchObject({ kommune: 'OSLO', postnummer: '0103' })
  })

  it('answers a sub-unit number from /underenheter after /enheter says 404', async () => {
    const { result, ctx } = await run('812345737')
    expect(result.data).toMatchObject({
      enhetstype: 'underenhet',
      navn: 'NORDLYS KAFÉDRIFT AS AVD GLASSHUSET',
      overordnetEnhet: '912346021',
      oppstartsdato: '2012-03-01',
      beliggenhetsadresse: { poststed: 'BODØ' },
    })
    expect(ctx.calls).toEqual([`${fake.baseUrl}/enheter/812345737`, `${fake.baseUrl}/underenheter/812345737`])
    expect(result.sourceApi).toBe(`${fake.baseUrl}/underenheter/812345737`)
    expect(fake.calls.at(-1)?.accept).toBe('application/vnd.brreg.enhetsregisteret.underenhet.v2+json;charset=UTF-8')
    expect(operation.entities?.(result.data, { org_nr: '812345737', limit: 25, offset: 0 })).toEqual([
      {
        type: 'organization',
        id: '812345737',
        name: 'NORDLYS KAFÉDRIFT AS AVD GLASSHUSET',
      },
      { type: 'organization', id: '912346021' },
    ])
  })

  it('is a 404 naming the number when neither register part knows it', async () => {
    const failure = await run('100000040').catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(GatewayError)
    expect(failure).not.toBeInstanceOf(UpstreamError)
    expect(failure).toMatchObject({
      status: 404,
      code: 'entity_not_found',
      message: 'No entity with organisation number 100000040 in Enhetsregisteret',
    })
  })

  it('accepts a 404 that carries a JSON error body too', async () => {
    fake.upstream.route('/enheter/100000040', () => ({
      status: 404,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 404, error: 'Not Found', message: 'Enheten finnes ikke' }),
    }))
    const failure = await run('100000040').catch((error: unknown) => error)
    expect(failure).toMatchObject({ status: 404, code: 'entity_not_found' })
  })

  it('is a 502 naming Brønnøysund for a 5xx or a 200 without a JSON body', async () => {
    fake.failWith(503, 1)
    const unavailable = await run('976030788').catch((error: unknown) => error)
    expect(unavailable).toBeInstanceOf(UpstreamError)
    expect(unavailable).toMatchObject({ status: 502, code: 'upstream_error' })

    fake.upstream.route('/enheter/923609016', () => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '',
    }))
    const empty = await run('923609016').catch((error: unknown) => error)
    expect(empty).toMatchObject({ status: 502, code: 'upstream_invalid_response' })

    fake.upstream.route('/enheter/991825827', () => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"organisasjonsnummer":"991825827"}',
    }))
    const shapeless = await run('991825827').catch((error: unknown) => error)
    expect(shapeless).toMatchObject({ status: 502, code: 'upstream_invalid_response' })
    expect((shapeless as Error).message).toContain('navn')
  })
})
