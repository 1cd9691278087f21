import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type TestGateway } from '@allmenning/core/testing'
import { lovdata, lovdataApi } from './index.js'
import { decisionPdfPages, DOMSTOL_DECISIONS, startFakeDomstol, type FakeDomstol } from './testing/fake-domstol.js'

let fake: FakeDomstol
let gateway: TestGateway
const now = () => new Date('2026-09-25T12:00:00Z')

const get = (operation: string, query = '') => gateway.call('lovdata', operation, query)

beforeAll(async () => {
  fake = await startFakeDomstol()
  gateway = createTestGateway({ sources: lovdata({ now }), upstreams: { domstol: fake } })
})
afterAll(() => fake.close())

describe('lovdata source', () => {
  it('describes the six operations with the output fields of spec 4.5 and the name alias', async () => {
    const descriptor = (await gateway.get('/api/v1/kilder/lovdata')).json
    const byName = Object.fromEntries(descriptor.operations.map((o: { name: string }) => [o.name, o]))
    expect(Object.keys(byName)).toEqual([
      'search_rules',
      'get_rule',
      'get_section',
      'search_case_law',
      'list_case_law',
      'get_case_law',
    ])
    expect(byName.search_rules.output_fields).toEqual([
      'data_updated',
      'total',
      'hits',
      'hits[].document_id',
      'hits[].source',
      'hits[].legacy_id',
      'hits[].title',
      'hits[].title_short',
      'hits[].ministry',
      'hits[].in_force_from',
      'hits[].last_change_in_force',
      // Beyond spec 4.5, only on hits found by a section heading.
      'hits[].matched_section',
      'hits[].matched_section.section',
      'hits[].matched_section.title',
      'hits[].matched_section.chapter',
      'hint',
      'has_more_results',
    ])
    expect(byName.get_rule.output_fields).toEqual([
      'document_id',
      'source',
      'legacy_id',
      'title',
      'title_short',
      'ministry',
      'in_force_from',
      'last_change_in_force',
      'sections',
      'sections[].section',
      'sections[].title',
      'text',
      'has_more_results',
    ])
    expect(byName.get_section.output_fields).toEqual(['document_id', 'title', 'section', 'text'])
    expect(byName.search_rules.canonical_field_aliases).toEqual({ name: ['hits[].title'] })
    // has_more_results is the core's, beside every named list.
    expect(byName.search_case_law.output_fields).toEqual([
      'query',
      'hits',
      'hits[].title',
      'hits[].hr_number',
      'hits[].excerpt',
      'hits[].published',
      'hits[].url',
      'has_more_results',
    ])
    expect(byName.list_case_law.output_fields).toEqual([
      'year',
      'categories',
      'total',
      'offset',
      'returned',
      'decisions',
      'decisions[].title',
      'decisions[].hr_number',
      'decisions[].published',
      'decisions[].category',
      'decisions[].url',
      'note',
      'has_more_results',
    ])
    expect(byName.get_case_law.output_fields).toEqual([
      'title',
      'hr_number',
      'published',
      'url',
      'case_intro',
      'summary',
      'pdf_url',
      'full_text',
      'note',
    ])
    expect(byName.search_case_law.canonical_field_aliases).toEqual({ name: ['hits[].title'] })
    expect(byName.list_case_law.canonical_field_aliases).toEqual({ name: ['decisions[].title'] })
    expect(byName.get_case_law.canonical_field_aliases).toEqual({ name: ['title'] })
  })

  it('list_case_law: one year, default page 50, categories, entities, provenance of domstol.no', async () => {
    const { status, json } = await get('list_case_law', 'year=2025')
    expect(status).toBe(200)
    expect(json.parameters).toEqual({ year: 2025, limit: 50, offset: 0 })
    expect(json.data).toMatchObject({
      year: 2025,
      categories: ['ankeutvalg-straff', 'sivil', 'straff'],
      total: 3,
      offset: 0,
      returned: 3,
    })
    expect(json.data.decisions[0]).toEqual({
      title: 'Ekspropriasjon av vegrett etter vegloven § 53',
      hr_number: 'HR-2025-844-A',
      published: '2025-05-09',
      category: 'sivil',
      url: 'https://www.domstol.no/no/hoyesterett/avgjorelser/avgjorelser-2025/hoyesterett---sivil/HR-2025-844-A/',
    })
    expect(json.entities[0]).toMatchObject({
      type: 'court_decision',
      id: 'HR-2025-844-A',
      name: 'Ekspropriasjon av vegrett etter vegloven § 53',
    })
    expect(JSON.stringify(json.entities[0])).toContain('get_case_law?ref=HR-2025-844-A')
    // Case law comes from domstol.no, and provenance says so; Lovdata's licence goes with Lovdata's upstream.
    expect(json._provenance.data).toMatchObject({
      source: 'Norges Høyesterett (domstol.no)',
      source_api: `${fake.baseUrl}/sitemap.xml`,
    })
    expect(json._provenance.upstreams).toEqual([
      expect.objectContaining({ id: 'domstol', license: 'Not protected by copyright (åndsverkloven § 14)' }),
    ])
    expect(lovdataApi).toMatchObject({
      id: 'lovdata',
      publisher: 'Stiftelsen Lovdata',
      license: 'NLOD 2.0 — Kilde: Stiftelsen Lovdata',
      baseUrl: 'https://api.lovdata.no',
    })
  })

  it('list_case_law: filters by category and pages', async () => {
    const { json } = await get('list_case_law', 'year=2025&category=STRAFF&limit=1&offset=0')
    expect(json.data).toMatchObject({
      total: 1,
      returned: 1,
      decisions: [{ hr_number: 'HR-2025-813-A', category: 'straff' }],
    })
    const second = await get('list_case_law', 'year=2025&limit=2&offset=2')
    expect(second.json.data).toMatchObject({
      total: 3,
      offset: 2,
      returned: 1,
      decisions: [{ hr_number: 'HR-2025-812-U' }],
    })
  })

  it('list_case_law: a bad year or category is a 400 naming the parameter', async () => {
    const year = await get('list_case_law', 'year=1850')
    expect(year.status).toBe(400)
    expect(year.json.error.details[0]).toMatchObject({ parameter: 'year' })
    const category = await get('list_case_law', 'year=2025&category=skatt')
    expect(category.status).toBe(400)
    expect(category.json.error.details[0]).toMatchObject({
      parameter: 'category',
      problem: expect.stringContaining('sivil, straff, ankeutvalg-sivil, ankeutvalg-straff'),
    })
    expect((await get('list_case_law')).status).toBe(400)
  })

  it('get_case_law: one decision by ref, in any case, with intro, summary and PDF link', async () => {
    const { status, json } = await get('get_case_law', 'ref=hr-2026-1360-a')
    expect(status).toBe(200)
    expect(json.parameters).toEqual({ ref: 'HR-2026-1360-A', full_text: false })
    expect(json.data).toEqual({
      title: 'Tillatelser til gruvedrift i Engebøfjellet er ugyldige',
      hr_number: 'HR-2026-1360-A',
      published: '2026-06-12',
      url: 'https://www.domstol.no/no/hoyesterett/avgjorelser/avgjorelser-2026/hoyesterett---sivil/HR-2026-1360-A/',
      case_intro:
        'Høyesteretts dom 12. juni 2026, HR-2026-1360-A, (sak nr. 25-118822SIV-HRET), sivil sak, anke over Borgarting lagmannsretts dom.',
      summary:
        'Saken gjaldt gyldigheten av tillatelser til gruvedrift med sjødeponi i Førdefjorden.\n\nHøyesterett kom til at tillatelsene er ugyldige.\n\n' +
        'Les avgjørelsen fra Høyesterett (PDF)\n\nRettsområde: Forvaltningsrett, naturmangfoldloven\n\nDommere: Bergsjø, Falch, Sivertsen',
      pdf_url: 'https://www.domstol.no/globalassets/upload/hret/avgjorelser/2026/juni/hr-2026-1360-a.pdf',
      full_text: null,
      note: null,
    })
  })

  it('get_case_law: full_text=yes reads the decision’s text from its PDF, paragraphs kept', async () => {
    const { status, json } = await get('get_case_law', 'ref=HR-2025-844-A&full_text=yes')
    expect(status).toBe(200)
    const decision = DOMSTOL_DECISIONS.find((d) => d.hrNumber === 'HR-2025-844-A')!
    // Every paragraph of both pages, in order, each wrapped line joined back, æ ø å § « » kept.
    expect(json.data.full_text).toBe(decisionPdfPages(decision).flat().join('\n\n'))
    expect(json.data.full_text).toContain('«særlige grunner»')
    expect(json.data.note).toBeNull()
    expect(json.data.summary).not.toBe(json.data.full_text)
  }, 30_000)

  it('get_case_law: when the PDF cannot be fetched or read, full_text is null and the note says why', async () => {
    fake.pdfAnswer('HR-2026-1432-A', 'missing')
    const missing = await get('get_case_law', 'ref=HR-2026-1432-A&full_text=yes')
    expect(missing.status).toBe(200)
    expect(missing.json.data).toMatchObject({ hr_number: 'HR-2026-1432-A', full_text: null })
    expect(missing.json.data.note).toMatch(/PDF \(pdf_url\) could not be fetched: .*404/)
    fake.pdfAnswer('HR-2025-812-U', 'not-pdf')
    const page = await get('get_case_law', 'ref=HR-2025-812-U&full_text=yes')
    expect(page.json.data).toMatchObject({
      full_text: null,
      note: expect.stringMatching(/is not a PDF file, so its full text is not available/),
    })
  }, 30_000)

  it('get_case_law: an unknown decision is a 404, a malformed ref a 400', async () => {
    const missing = await get('get_case_law', 'ref=HR-2025-9999-A')
    expect(missing.status).toBe(404)
    expect(missing.json.error.message).toBe('domstol.no publishes no Høyesterett decision HR-2025-9999-A')
    const bad = await get('get_case_law', 'ref=Rt-2005-1234')
    expect(bad.status).toBe(400)
    expect(bad.json.error.details[0]).toMatchObject({
      parameter: 'ref',
      problem: 'must be a case number such as HR-2024-1234-A',
    })
  })

  it('search_case_law: words over titles, intros and summaries of this and last year, title hits first, default page 10', async () => {
    const { status, json } = await get('search_case_law', 'query=Høyesterett%20sivil')
    expect(status).toBe(200)
    expect(json.parameters).toEqual({ query: 'Høyesterett sivil', limit: 10, offset: 0 })
    expect(json.data.hits.map((h: { hr_number: string }) => h.hr_number)).toEqual(['HR-2026-1360-A', 'HR-2025-844-A'])
    const tiktok = await get('search_case_law', 'query=tiktok')
    expect(tiktok.json.data.hits).toEqual([
      {
        title: 'Straff for publisering av videoer på TikTok',
        hr_number: 'HR-2025-813-A',
        excerpt: 'En mann hadde publisert flere hundre videoer på TikTok om ærekrenkelser.',
        published: '2025-05-06',
        url: 'https://www.domstol.no/no/hoyesterett/avgjorelser/avgjorelser-2025/hoyesterett---straff/HR-2025-813-A/',
      },
    ])
    expect((await get('search_case_law', 'query=aerekrenkelser')).json.data.hits).toHaveLength(1)
  })

  it('search_case_law: a case number finds its decision in any year', async () => {
    const { json } = await get('search_case_law', 'query=HR-2023-491-P')
    expect(json.data.hits.map((h: { hr_number: string }) => h.hr_number)).toEqual(['HR-2023-491-P'])
  })
})

describe('lovdata source when domstol.no changes', () => {
  it('answers 502 naming domstol.no and what no longer matched', async () => {
    const changed = await startFakeDomstol()
    changed.redesignPage('HR-2026-1432-A')
    const g = createTestGateway({ sources: lovdata(), upstreams: { domstol: changed } })
    try {
      const res = await g.call('lovdata', 'list_case_law', 'year=2026')
      const json = res.json
      expect(res.status).toBe(502)
      expect(json.error.code).toBe('upstream_invalid_response')
      expect(json.error.message).toContain(
        'Upstream domstol.no (domstol) answered the decision page /no/hoyesterett/avgjorelser/avgjorelser-2026/hoyesterett---straff/HR-2026-1432-A/ without the __INITIAL__DATA__ JSON',
      )
      expect(res.body).not.toContain('HR-2026-1360-A')
    } finally {
      await changed.close()
    }
  })
})
