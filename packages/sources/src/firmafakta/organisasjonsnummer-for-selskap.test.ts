import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { brregFixtures, startFakeBrreg, type BrregRecord, type FakeBrreg } from './testing/fake-brreg.js'
import { UpstreamError } from '@allmenning/core/source'
import { organisasjonsnummerForSelskap as operation } from './organisasjonsnummer-for-selskap.js'
import { organisationNumberCheckDigit } from './org-nr.js'
import { describeUnit, titleCasePlace } from './beskrivelse.js'
import { rankCompanies } from './rank-by-name.js'
import { testContext } from './testing/test-context.js'

const run = (fake: FakeBrreg, company_name: string, limit = 25, offset = 0) => {
  const ctx = testContext(fake.baseUrl, 'organisasjonsnummer_for_selskap')
  return operation.run({ company_name, limit, offset }, ctx).then((result) => ({ result, ctx }))
}

/** `count` main entities named "FJORD ..." with valid numbers, in the fake's score order. */
function fjordCompanies(count: number): BrregRecord[] {
  const template = brregFixtures().enheter[0] as BrregRecord
  const companies: BrregRecord[] = []
  for (let base = 93_000_000; companies.length < count; base++) {
    const digit = organisationNumberCheckDigit(String(base))
    if (digit === undefined) continue
    const n = companies.length
    // Score order puts the exact name "FJORD AS" at position 150, past the ranked pool.
    const navn = n === 150 ? 'FJORD AS' : `FJORD ${String(n).padStart(3, '0')} AS`
    companies.push({ ...template, organisasjonsnummer: `${base}${digit}`, navn })
  }
  return companies
}

describe('organisasjonsnummer_for_selskap', () => {
  let fake: FakeBrreg
  beforeAll(async () => {
    fake = await startFakeBrreg()
  })
  afterAll(() => fake.close())

  it('puts the exact name first, then names starting with it, then the rest in score order', async () => {
    const { result } = await run(fake, 'Sesam')
    // The fake's score order: SESAM BAKERI, BAKERI SESAM, SESAMSTASJONEN, SESAM AS, SESAM SESAM ..., SESAM BARNEHAGE.
    expect(result.data.map((hit) => hit.navn)).toEqual([
      'SESAM AS',
      'SESAM BAKERI AS',
      'SESAMSTASJONEN AS',
      'SESAM SESAM Kari Nordmann',
      'SESAM BARNEHAGE SA',
      'BAKERI SESAM AS',
    ])
    expect(result.page).toEqual({ hasMore: false, total: 6 })
    expect(() => v.parse(operation.output, result.data)).not.toThrow()
  })

  it('describes each company so namesakes can be told apart', async () => {
    const { result } = await run(fake, 'sesam')
    const byNumber = Object.fromEntries(result.data.map((hit) => [hit.organisasjonsnummer, hit.beskrivelse]))
    expect(byNumber['976030788']).toBe('Aksjeselskap i Trondheim — Drift av restauranter og kafeer')
    expect(byNumber['912345742']).toBe('Aksjeselskap i Tromsø — Produksjon av brød og ferske konditorvarer')
    expect(byNumber['912345882']).toBe('Enkeltpersonforetak i Bergen — Skjønnhetspleie')
    const { result: bankrupt } = await run(fake, 'konkursbo')
    expect(bankrupt.data[0]?.beskrivelse).toBe(
      'Aksjeselskap i Drammen — Butikkhandel med bredt vareutvalg ellers (konkurs)',
    )
  })

  it('asks Brønnøysund for 100 hits by name with the pinned enhet media type, and names that URL', async () => {
    const { result, ctx } = await run(fake, 'Sesam', 2, 1)
    const call = fake.calls.at(-1)
    expect(call).toEqual({
      path: '/enheter',
      query: { navn: 'Sesam', page: '0', size: '100' },
      accept: 'application/vnd.brreg.enhetsregisteret.enhet.v2+json;charset=UTF-8',
    })
    expect(ctx.calls).toEqual([`${fake.baseUrl}/enheter?navn=Sesam&page=0&size=100`])
    expect(result.sourceApi).toBe(ctx.calls[0])
    expect(result.data.map((hit) => hit.navn)).toEqual(['SESAM BAKERI AS', 'SESAMSTASJONEN AS'])
    expect(result.page).toEqual({ hasMore: true, total: 6 })
  })

  it('answers an empty search (no _embedded key) with an empty list', async () => {
    const { result } = await run(fake, 'Finnes ikke i registeret')
    expect(result.data).toEqual([])
    expect(result.page).toEqual({ hasMore: false, total: 0 })
  })

  it('gives organisation entities that point at selskapsdetaljer', async () => {
    const { result } = await run(fake, 'Sesam', 1)
    const params = { company_name: 'Sesam', limit: 1, offset: 0 }
    expect(operation.entities?.(result.data, params)).toEqual([
      {
        type: 'organization',
        id: '976030788',
        name: 'SESAM AS',
      },
    ])
  })

  it('validates company_name: 2..100 characters after trimming', () => {
    const schema = operation.parameters.company_name
    expect(v.parse(schema, '  Sesam ')).toBe('Sesam')
    expect(v.safeParse(schema, 'S').issues?.[0]?.message).toBe('must be at least 2 characters')
    expect(v.safeParse(schema, '  S  ').success).toBe(false)
    expect(v.safeParse(schema, 'x'.repeat(101)).issues?.[0]?.message).toBe('must be at most 100 characters')
    expect(v.safeParse(schema, 'x'.repeat(100)).success).toBe(true)
  })

  it('is a 502 naming Brønnøysund when the search fails', async () => {
    fake.failWith(500, 1)
    const failure = await run(fake, 'Sesam').catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(UpstreamError)
    expect((failure as UpstreamError).message).toContain('Brønnøysundregistrene Enhetsregisteret (brreg)')
  })

  describe('beyond the ranked pool of 100', () => {
    let many: FakeBrreg
    const companies = fjordCompanies(260)
    beforeAll(async () => {
      many = await startFakeBrreg({ enheter: companies })
    })
    afterAll(() => many.close())

    it('does not pull forward an exact match that Brønnøysund scores below its first 100', async () => {
      const { result } = await run(many, 'Fjord', 3)
      expect(result.data.map((hit) => hit.navn)).toEqual(['FJORD 000 AS', 'FJORD 001 AS', 'FJORD 002 AS'])
      const { result: later } = await run(many, 'Fjord', 1, 150)
      expect(later.data.map((hit) => hit.navn)).toEqual(['FJORD AS'])
      expect(result.page).toEqual({ hasMore: true, total: 260 })
    })

    it('continues in score order past the pool without losing or repeating a row', async () => {
      const seen: string[] = []
      for (let offset = 0; offset < 260; offset += 37) {
        const { result } = await run(many, 'Fjord', 37, offset)
        seen.push(...result.data.map((hit) => hit.organisasjonsnummer))
        expect(result.page?.hasMore).toBe(offset + 37 < 260)
      }
      expect(seen).toEqual(companies.map((company) => company.organisasjonsnummer))
    })

    it('fetches the pool and the page of 100 that holds the rows past it, which later windows share', async () => {
      const before = many.calls.length
      const { result, ctx } = await run(many, 'Fjord', 10, 95)
      expect(result.data.map((hit) => hit.navn)).toEqual(companies.slice(95, 105).map((company) => company.navn))
      expect(many.calls.slice(before).map((call) => call.query)).toEqual([
        { navn: 'Fjord', page: '0', size: '100' },
        { navn: 'Fjord', page: '1', size: '100' },
      ])
      expect(result.sourceApi).toBe(ctx.calls[0])
    })

    it('skips the pool for a window that starts past it', async () => {
      const { result, ctx } = await run(many, 'Fjord', 20, 200)
      expect(result.data.map((hit) => hit.navn)).toEqual(companies.slice(200, 220).map((company) => company.navn))
      expect(ctx.calls).toEqual([`${many.baseUrl}/enheter?navn=Fjord&page=2&size=100`])
      expect(result.page).toEqual({ hasMore: true, total: 260 })
    })
  })
})

describe('ranking companies by name', () => {
  it("puts the company named, also without its legal form, before longer names, keeping Brønnøysund's order within a tier", () => {
    const hits = [
      { navn: 'SESAM B AS' },
      { navn: 'X SESAM' },
      { navn: 'BAKERI' },
      { navn: 'SESAM A AS' },
      { navn: 'SESAM AS' },
      { navn: 'SESAM' },
    ]
    expect(rankCompanies('sesam', hits).map((hit) => hit.navn)).toEqual([
      'SESAM',
      'SESAM AS',
      'SESAM B AS',
      'SESAM A AS',
      'X SESAM',
      'BAKERI',
    ])
    expect(rankCompanies('Sesam ASA', hits)[0]?.navn).toBe('SESAM AS')
  })
})

describe('beskrivelse', () => {
  it('title-cases municipality names written in capitals', () => {
    expect(titleCasePlace('INDRE ØSTFOLD')).toBe('Indre Østfold')
    expect(titleCasePlace('NORD-AURDAL')).toBe('Nord-Aurdal')
  })

  it('falls back to the country for a foreign address and leaves out what is unknown', () => {
    const unit = {
      organisasjonsnummer: '976030788',
      navn: 'X',
      forretningsadresse: { land: 'Sverige', landkode: 'SE' },
    }
    expect(describeUnit(unit)).toBe('Enhet i Sverige')
    expect(describeUnit({ organisasjonsnummer: '976030788', navn: 'X', underAvvikling: true })).toBe(
      'Enhet (under avvikling)',
    )
  })

  it('says a unit is deleted, with the day, whichever way the register says it', () => {
    const deleted = {
      organisasjonsnummer: '912346455',
      navn: 'X',
      respons_klasse: 'SlettetEnhet',
      slettedato: '2025-06-30',
    }
    expect(describeUnit(deleted)).toBe('Enhet (slettet 2025-06-30)')
    expect(describeUnit({ organisasjonsnummer: '812346318', navn: 'X', respons_klasse: 'SlettetUnderEnhet' })).toBe(
      'Enhet (slettet)',
    )
  })
})
