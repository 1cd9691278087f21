import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, type Gateway } from '@allmenning/core'
import { lovdata } from './index.js'
import { listedDate, lovdataLaws, lovdataRegulations } from './rule-datasets.js'
import { startFakeLovdata } from './testing/fake-lovdata.js'
import { loadRuleDatasets, nothingLoaded, ruleLoadCommand, type LoadedRules } from './testing/loaded-rule-datasets.js'

let rules: LoadedRules
let gateway: Gateway
const errors: unknown[] = []

const get = async (operation: string, query: string, g = gateway) => {
  const res = await g.handle({ method: 'GET', path: `/api/v1/kilder/lovdata/${operation}`, query, headers: {} })
  return { status: res.status, json: JSON.parse(res.body!) }
}

beforeAll(async () => {
  rules = await loadRuleDatasets()
  // Every document and section is read; none is skipped as malformed.
  expect(rules.laws).toMatchObject({ records: 6, malformed: 0 })
  expect(rules.regulations).toMatchObject({ records: 3, malformed: 0 })
  gateway = createGateway({ sources: [lovdata()], datasets: rules.store, onError: (error) => errors.push(error) })
})
afterAll(() => rules.close())

describe('search_rules', () => {
  it('ranks the law whose short title matches first: straffeloven, aksjeloven', async () => {
    for (const [query, id] of [
      ['straffeloven', 'NL/lov/2005-05-20-28'],
      ['aksjeloven', 'NL/lov/1997-06-13-44'],
    ] as const) {
      for (const fullText of ['no', 'yes']) {
        const { status, json } = await get('search_rules', `query=${query}&full_text=${fullText}`)
        expect(status).toBe(200)
        expect(json.data.hits[0].document_id).toBe(id)
        expect(json.data.hits[0].title_short.toLowerCase()).toContain(query)
        expect(json.data.total).toBe(2)
        expect(json.data.hits.map((hit: { document_id: string }) => hit.document_id)).toContain('NL/lov/2020-06-19-99')
      }
    }
  })

  it('matches the beginning of a word; in the text only of words of six letters or more', async () => {
    expect((await get('search_rules', 'query=aksj')).json.data.hits[0].document_id).toBe('NL/lov/1997-06-13-44')
    expect((await get('search_rules', 'query=aksjelov&full_text=yes')).json.data.hits[0].document_id).toBe(
      'NL/lov/1997-06-13-44',
    )
    // "aksj"* over every text would merge the postings of every word so begun; whole words only there.
    expect((await get('search_rules', 'query=aksj&full_text=yes')).json.data.total).toBe(0)
  })

  it('ranks by the short title’s abbreviation too', async () => {
    expect((await get('search_rules', 'query=strl')).json.data.hits[0].document_id).toBe('NL/lov/2005-05-20-28')
  })

  it('answers the fields of spec 4.5 with data_updated, total and a hint', async () => {
    const { json } = await get('search_rules', 'query=aksjelov')
    expect(json.data.data_updated).toBe('2026-11-20')
    expect(json.data.hits[0]).toEqual({
      document_id: 'NL/lov/1997-06-13-44',
      source: 'laws',
      legacy_id: 'LOV-1997-06-13-44',
      title: 'Lov om aksjeselskaper (aksjeloven)',
      title_short: 'Aksjeloven – asl',
      ministry: expect.any(String),
      in_force_from: expect.any(String),
      last_change_in_force: expect.toBeOneOf([null, expect.any(String)]),
    })
    expect(json.data.hint).toContain('get_section')
    expect(json.data._meta?.datasets ?? json._meta.datasets).toHaveLength(2)
  })

  it('keeps æ, ø and å as letters and finds text only with full_text=yes', async () => {
    expect((await get('search_rules', 'query=Ærø')).json.data.total).toBe(0)
    const found = await get('search_rules', 'query=Ærø&full_text=yes')
    expect(found.json.data.hits.map((h: { document_id: string }) => h.document_id)).toEqual(['NL/lov/2005-05-20-28'])
    // remove_diacritics 0: "aro" is not "ærø".
    expect((await get('search_rules', 'query=aro&full_text=yes')).json.data.total).toBe(0)
  })

  it('finds rules by section reference: § 5a, §§ 3-1 til 3-3', async () => {
    const fifth = await get('search_rules', `query=${encodeURIComponent('straffeloven § 5a')}`)
    expect(fifth.json.data.hits[0].document_id).toBe('NL/lov/2005-05-20-28')
    expect(fifth.json.data.hint).toContain('section=5a')
    const range = await get('search_rules', `query=${encodeURIComponent('§§ 3-1 til 3-3')}&source=laws`)
    expect(range.json.data.hits.map((h: { document_id: string }) => h.document_id)).toEqual(['NL/lov/1997-06-13-44'])
  })

  it('filters by source and finds a regulation', async () => {
    const regulations = await get('search_rules', 'query=byggteknisk&source=regulations')
    expect(regulations.json.data.hits).toMatchObject([
      { document_id: 'SF/forskrift/2017-06-19-840', source: 'regulations', legacy_id: 'FOR-2017-06-19-840' },
    ])
    expect((await get('search_rules', 'query=byggteknisk&source=laws')).json.data.total).toBe(0)
    const bad = await get('search_rules', 'query=lov&source=rules')
    expect(bad.status).toBe(400)
    expect(JSON.stringify(bad.json)).toContain('source')
  })

  it('finds a rule by a section heading its title lacks, after title matches, and names the section', async () => {
    const TEK17 = 'SF/forskrift/2017-06-19-840'
    const { json } = await get('search_rules', 'query=radon')
    // Title, then heading; the regulation with "radon" only in its text is not a title or heading match.
    expect(json.data.hits.map((h: { document_id: string }) => h.document_id)).toEqual([
      'SF/forskrift/2021-03-15-812',
      TEK17,
    ])
    expect(json.data.total).toBe(2)
    expect(json.data.hits[0].matched_section).toBeUndefined()
    expect(json.data.hits[1].matched_section).toEqual({ section: '13-5', title: 'Radon', chapter: 'III. Radon' })
    // The matched section is an entity too, linked to get_section.
    expect(JSON.stringify(json)).toContain('§ 13-5 Radon')
    // Every word must match, in the titles or the headings.
    const across = await get('search_rules', 'query=byggteknisk%20radon')
    expect(across.json.data.hits).toMatchObject([{ document_id: TEK17, matched_section: { section: '13-5' } }])
    expect((await get('search_rules', `query=${encodeURIComponent('radon § 13-5')}`)).json.data.hits).toMatchObject([
      { document_id: TEK17 },
    ])
    expect((await get('search_rules', 'query=radon&source=laws')).json.data.total).toBe(0)
  })

  it('ranks title, then heading, then text matches with full_text=yes', async () => {
    const { json } = await get('search_rules', 'query=radon&full_text=yes')
    expect(json.data.hits.map((h: { document_id: string }) => h.document_id)).toEqual([
      'SF/forskrift/2021-03-15-812',
      'SF/forskrift/2017-06-19-840',
      'SF/forskrift/2022-11-02-1930',
    ])
    expect(json.data.total).toBe(3)
    expect(json.data.hits[2].matched_section).toBeUndefined()
    // A chapter's heading is a heading too: straffeloven's chapter 2 is "Vilkår for straff".
    const chapter = await get('search_rules', `query=${encodeURIComponent('vilkår')}`)
    expect(chapter.json.data.hits).toMatchObject([
      {
        document_id: 'NL/lov/2005-05-20-28',
        matched_section: { section: '5a', title: 'Forbud mot dobbeltstraff', chapter: 'Kapittel 2. Vilkår for straff' },
      },
    ])
  })

  it('finds the nynorsk twin beside the bokmål text', async () => {
    const { json } = await get('search_rules', 'query=grunnlov')
    expect(json.data.hits.map((h: { document_id: string }) => h.document_id).sort()).toEqual([
      'NL/lov/1814-05-17',
      'NL/lov/1814-05-17-nn',
    ])
  })

  it('searches FTS5 syntax as text and refuses a query with nothing to search', async () => {
    expect((await get('search_rules', `query=${encodeURIComponent('* : ^ ()')}`)).status).toBe(400)
    const operators = await get('search_rules', `query=${encodeURIComponent('aksjeloven NEAR(*')}`)
    expect(operators.status).toBe(200)
    expect(operators.json.data.total).toBe(0)
    expect(errors).toEqual([])
  })
})

describe('get_rule and get_section', () => {
  it('accept the document id in the forms users type', async () => {
    for (const id of ['NL/lov/2005-05-20-28', 'lov/2005-05-20-28', 'LOV-2005-05-20-28']) {
      const { status, json } = await get('get_rule', `document_id=${encodeURIComponent(id)}`)
      expect(status).toBe(200)
      expect(json.data).toMatchObject({
        document_id: 'NL/lov/2005-05-20-28',
        source: 'laws',
        title: 'Lov om straff (straffeloven)',
        text: null,
      })
      expect(json.data.sections.map((s: { section: string }) => s.section)).toEqual(['1', '5', '5a'])
      // The echo and the links carry the id as Lovdata writes it, whatever form was typed.
      expect(json.parameters.document_id).toBe('NL/lov/2005-05-20-28')
      expect(json._links.self).toContain(`document_id=${encodeURIComponent('NL/lov/2005-05-20-28')}`)
    }
  })

  it('pages the sections and gives their text only with full_text=yes', async () => {
    const { json } = await get('get_rule', 'document_id=lov/1997-06-13-44&limit=2&offset=1&full_text=yes')
    expect(json.data.sections).toEqual([
      { section: '3-2', title: 'Verdien av innskudd' },
      { section: '3-3', title: 'Tegning' },
    ])
    expect(json.data.text).toContain('Innskudd som ytes til selskapet')
    expect(json.data.text).not.toContain('Aksjekapitalen må minst')
    expect(json.data.has_more_results).toBe(false)
  })

  it('gives the nynorsk twin and a regulation', async () => {
    expect((await get('get_rule', 'document_id=NL/lov/1814-05-17-nn')).json.data.title).toBe(
      'Kongeriket Noregs grunnlov',
    )
    const tek = await get('get_section', `document_id=FOR-2017-06-19-840&section=${encodeURIComponent('§ 13-5')}`)
    expect(tek.status).toBe(200)
    expect(tek.json.data).toMatchObject({ document_id: 'SF/forskrift/2017-06-19-840', title: 'Radon', section: '13-5' })
    expect(tek.json.data.text).toContain('radonsperre')
  })

  it('get_section takes § 5a, 5a and §5a', async () => {
    for (const section of ['§ 5a', '5a', '§5a']) {
      const { status, json } = await get(
        'get_section',
        `document_id=lov/2005-05-20-28&section=${encodeURIComponent(section)}`,
      )
      expect(status).toBe(200)
      expect(json.data).toMatchObject({
        document_id: 'NL/lov/2005-05-20-28',
        title: 'Forbud mot dobbeltstraff',
        section: '5a',
      })
      expect(json.data.text).toContain('Ærø')
    }
  })

  it('get_section answers the key get_rule lists, and that key passed back finds the same section', async () => {
    const rule = await get('get_rule', 'document_id=lov/1997-06-13-44')
    for (const { section: key } of rule.json.data.sections as Array<{ section: string }>) {
      const { status, json } = await get(
        'get_section',
        `document_id=lov/1997-06-13-44&section=${encodeURIComponent(key)}`,
      )
      expect(status).toBe(200)
      expect(json.data.section).toBe(key)
      const again = await get(
        'get_section',
        `document_id=${encodeURIComponent(json.data.document_id)}&section=${encodeURIComponent(json.data.section)}`,
      )
      expect(again.json.data).toEqual(json.data)
    }
  })

  it('an unknown document or section is a 404 that says so', async () => {
    const doc = await get('get_rule', 'document_id=LOV-1999-01-01-1')
    expect(doc.status).toBe(404)
    expect(JSON.stringify(doc.json)).toContain('NL/lov/1999-01-01-1')
    const section = await get('get_section', 'document_id=LOV-2005-05-20-28&section=99z')
    expect(section.status).toBe(404)
    expect(JSON.stringify(section.json)).toContain('§ 99z')
    expect((await get('get_rule', 'document_id=not-a-law')).status).toBe(400)
  })

  it('links laws, regulations and sections to the operations that return them', async () => {
    const { json } = await get('get_rule', 'document_id=lov/2005-05-20-28&limit=1')
    const entities = JSON.stringify(json)
    expect(entities).toContain('get_rule')
    expect(entities).toContain('get_section')
  })
})

describe('entity search', () => {
  it('recognizes § and finds the section and its law', async () => {
    const res = await gateway.handle({
      method: 'GET',
      path: '/api/v1/sok/alle',
      query: `q=${encodeURIComponent('straffeloven § 5a')}&mode=entities`,
      headers: {},
    })
    const json = JSON.parse(res.body!)
    expect(res.status).toBe(200)
    expect(json.results[0]).toMatchObject({ type: 'rule_section', id: 'NL/lov/2005-05-20-28/§5a', source: 'lovdata' })
    expect(JSON.stringify(json.results[0]._links)).toContain('get_section')
    expect(json.results.map((r: { id: string }) => r.id)).toContain('NL/lov/2005-05-20-28')
  })

  it('finds a section by the id users type, named as get_section names it', async () => {
    const res = await gateway.handle({
      method: 'GET',
      path: '/api/v1/sok/alle',
      query: `q=${encodeURIComponent('lov/2005-05-20-28/§5a')}&mode=entities`,
      headers: {},
    })
    const json = JSON.parse(res.body!)
    expect(json.results[0]).toMatchObject({
      type: 'rule_section',
      id: 'NL/lov/2005-05-20-28/§5a',
      name: expect.stringMatching(/^§ 5a /),
    })
    const section = await get('get_section', 'document_id=lov/2005-05-20-28&section=5a')
    expect(section.json.entities[0].name).toBe(json.results[0].name)
  })

  it('finds a rule by the id users type', async () => {
    const res = await gateway.handle({
      method: 'GET',
      path: '/api/v1/sok/alle',
      query: 'q=LOV-1997-06-13-44&mode=entities',
      headers: {},
    })
    const json = JSON.parse(res.body!)
    expect(json.results[0]).toMatchObject({
      type: 'law',
      id: 'NL/lov/1997-06-13-44',
      name: 'Lov om aksjeselskaper (aksjeloven)',
    })
    expect(JSON.stringify(json.results[0]._links)).toContain('get_rule')
  })
})

describe('the two datasets', () => {
  it('download Lovdata’s archives and take their dates from /v1/publicData/list', async () => {
    expect(lovdataLaws.files[0]!.url).toBe('https://api.lovdata.no/v1/publicData/get/gjeldende-lover.tar.bz2')
    expect(lovdataRegulations.files[0]!.url).toBe(
      'https://api.lovdata.no/v1/publicData/get/gjeldende-sentrale-forskrifter.tar.bz2',
    )
    const fake = await startFakeLovdata()
    try {
      expect(await listedDate('gjeldende-lover.tar.bz2', fake.baseUrl)).toBe('2026-09-03T02:14:07Z')
      expect(await listedDate('gjeldende-sentrale-forskrifter.tar.bz2', fake.baseUrl)).toBe('2026-09-03T02:31:44Z')
      expect(await listedDate('gjeldende-lokale-forskrifter.tar.bz2', fake.baseUrl)).toBeNull()
    } finally {
      await fake.close()
    }
  })
})

describe('before the rules are loaded', () => {
  it('answers 502 dataset_not_loaded naming the command', async () => {
    const empty = createGateway({ sources: [lovdata()], datasets: nothingLoaded, onError: () => {} })
    const { status, json } = await get('get_rule', 'document_id=lov/2005-05-20-28', empty)
    expect(status).toBe(502)
    expect(JSON.stringify(json)).toContain('npx allmenning datasets sync lovdata_lover')
  })

  it('a search of both collections with one loaded says how to search that one', async () => {
    const rules = await loadRuleDatasets()
    try {
      const lawsOnly = createGateway({
        sources: [lovdata()],
        datasets: {
          reader: (dataset) => (dataset.id === 'lovdata_lover' ? rules.store.reader(dataset) : undefined),
          loadCommand: ruleLoadCommand,
        },
        onError: () => {},
      })
      const both = await get('search_rules', 'query=straffeloven', lawsOnly)
      expect(both.status).toBe(502)
      expect(both.json.error).toMatchObject({
        code: 'dataset_not_loaded',
        message:
          'Dataset lovdata_forskrifter (Lovdata: central regulations in force (gjeldende sentrale forskrifter)) is not loaded in this deployment; ' +
          'load it with: npx allmenning datasets sync lovdata_forskrifter. Meanwhile source=laws searches the laws, which are loaded.',
      })
      const laws = await get('search_rules', 'query=straffeloven&source=laws', lawsOnly)
      expect(laws.status).toBe(200)
      expect(laws.json.data.hits[0]).toMatchObject({ title_short: expect.stringMatching(/^Straffeloven/) })
    } finally {
      rules.close()
    }
  })

  it('a search about rules says lovdata is not loaded, rather than that nothing matched', async () => {
    const empty = createGateway({ sources: [lovdata()], datasets: nothingLoaded, onError: () => {} })
    const res = await empty.handle({
      method: 'GET',
      path: '/api/v1/sok/alle',
      query: `q=${encodeURIComponent('straffeloven § 5a')}&mode=entities`,
      headers: {},
    })
    const json = JSON.parse(res.body!)
    expect(json.coverage.lovdata).toMatchObject({
      status: 'not_loaded',
      message: expect.stringContaining('npx allmenning datasets sync lovdata_lover'),
    })
    expect(json.outcome).toBe('incomplete')
  })
})
