import { outlineOf } from '@allmenning/core/source'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '@allmenning/core'
import { createTestGateway, fakeReply, type TestGateway } from '@allmenning/core/testing'
import { ssb } from './index.js'
import { fakeCellValue, ssbFixtures, startFakeSsb, type FakeSsb } from './testing/fake-ssb.js'

let fake: FakeSsb
let gateway: TestGateway
beforeAll(async () => {
  fake = await startFakeSsb()
  gateway = createTestGateway({ sources: ssb(), upstreams: { ssb: fake } })
})
afterAll(() => fake.close())

const call = (operation: string, query: string) => gateway.call('ssb', operation, query)

describe('ssb source definition', () => {
  it('calls the real PxWebApi v2 by default, through the upstream id ssb', () => {
    expect(ssb().upstreams).toEqual([
      expect.objectContaining({ id: 'ssb', baseUrl: 'https://data.ssb.no/api/pxwebapi/v2' }),
    ])
    expect(outlineOf(ssb().operations).map((o) => o.name)).toEqual([
      'search_tables',
      'get_table_metadata',
      'get_table_data',
    ])
  })
})

describe('search_tables', () => {
  it('finds tables by words, discontinued ones left out, in the list shape with has_more_results', async () => {
    const { status, json } = await call('search_tables', 'query=folkemengde')
    expect(status).toBe(200)
    expect(json.data.tables.map((t: { table_id: string }) => t.table_id)).toEqual(['91234'])
    expect(json.data.tables[0]).toMatchObject({
      label: '91234: Folkemengde og fødte, etter region, statistikkvariabel og år',
      first_period: '2020',
      last_period: '2024',
      time_unit: 'Annual',
      variables: ['region', 'statistikkvariabel', 'år'],
    })
    expect(json.data.has_more_results).toBe(false)
    expect(json.entities[0]).toMatchObject({ type: 'statistics_table', id: '91234' })
    expect(fake.received.at(-1)?.query.get('includeDiscontinued')).toBe('false')
  })

  it('pages with limit and offset onto pageNumber and pageSize', async () => {
    const first = await call('search_tables', 'query=befolkningsframskriving&limit=10')
    const second = await call('search_tables', 'query=befolkningsframskriving&limit=10&offset=10')
    const straddling = await call('search_tables', 'query=befolkningsframskriving&limit=10&offset=5')
    const ids = (r: typeof first) => r.json.data.tables.map((t: { table_id: string }) => t.table_id)
    expect(first.json.data.has_more_results).toBe(true)
    expect(ids(straddling)).toEqual([...ids(first).slice(5), ...ids(second).slice(0, 5)])
    expect(first.json._meta.pagination.total).toBe(23)
  })

  it('answers a query SSB cannot parse with a 400 naming query, and a too short one without calling SSB', async () => {
    const bad = await call('search_tables', 'query=title:(folk')
    expect(bad.status).toBe(400)
    expect(bad.json.error.details[0]).toMatchObject({ parameter: 'query' })
    const before = fake.requests.length
    const short = await call('search_tables', 'query=a')
    expect(short.status).toBe(400)
    expect(short.json.error.details[0].parameter).toBe('query')
    expect(fake.requests.length).toBe(before)
  })

  it('is a 502 naming SSB when it fails', async () => {
    fake.failWith(fakeReply.status(503), { times: 1 })
    const { status, json } = await call('search_tables', 'query=kvartal')
    expect(status).toBe(502)
    expect(json.error.message).toContain('SSB PxWebApi')
  })
})

describe('get_table_metadata', () => {
  it('lists variables with values, labels, units, roles, elimination and code lists', async () => {
    const { status, json } = await call('get_table_metadata', 'table_id=91234')
    expect(status).toBe(200)
    expect(json.data.variables.map((v: { code: string }) => v.code)).toEqual(['Region', 'ContentsCode', 'Tid'])
    expect(json.data.variables[0]).toMatchObject({
      role: 'geo',
      elimination: true,
      value_count: 5,
      codelists: [{ id: 'agg_Fylker2024', label: 'Fylker 2024' }],
    })
    expect(json.data.variables[0].values[1]).toEqual({ code: '0301', label: 'Oslo', unit: null })
    expect(json.data.variables[1]).toMatchObject({
      role: 'metric',
      elimination: false,
      values: [
        { code: 'Folkemengde', unit: 'personer' },
        { code: 'Fodte', label: 'Levendefødte' },
      ],
    })
    expect(json.data.notes).toEqual(['Tallene gjelder 1. januar.'])
    expect(json._provenance.data.source_api).toBe(
      `${fake.baseUrl}/tables/91234/metadata?lang=no&outputFormat=json-stat2`,
    )
    expect(json.entities[0]).toMatchObject({ type: 'statistics_table', id: '91234' })
  })

  it('is a 404 for an unknown table and a 400 for a malformed number', async () => {
    expect((await call('get_table_metadata', 'table_id=99999')).status).toBe(404)
    const bad = await call('get_table_metadata', 'table_id=9123')
    expect(bad.status).toBe(400)
    expect(bad.json.error.details[0].parameter).toBe('table_id')
  })

  it('is cached for hours', async () => {
    const { headers } = await call('get_table_metadata', 'table_id=93456')
    expect(headers['cache-control']).toMatch(/max-age=21600\b/)
  })
})

describe('get_table_data', () => {
  it('turns JSON-stat2 into rows with codes, labels, value, status and unit', async () => {
    const { status, json } = await call(
      'get_table_data',
      'table_id=91234&selection=Region:0301,1103;ContentsCode:Folkemengde;Tid:range(2020,2021)',
    )
    expect(status).toBe(200)
    expect(json.data.cells).toBe(4)
    expect(json.data.rows).toEqual([
      {
        Region: '0301',
        Region_label: 'Oslo',
        ContentsCode: 'Folkemengde',
        ContentsCode_label: 'Folkemengde',
        Tid: '2020',
        Tid_label: '2020',
        value: fakeCellValue(['0301', 'Folkemengde', '2020'], 0),
        status: null,
        unit: 'personer',
      },
      {
        Region: '0301',
        Region_label: 'Oslo',
        ContentsCode: 'Folkemengde',
        ContentsCode_label: 'Folkemengde',
        Tid: '2021',
        Tid_label: '2021',
        value: fakeCellValue(['0301', 'Folkemengde', '2021'], 1),
        status: null,
        unit: 'personer',
      },
      {
        Region: '1103',
        Region_label: 'Stavanger',
        ContentsCode: 'Folkemengde',
        ContentsCode_label: 'Folkemengde',
        Tid: '2020',
        Tid_label: '2020',
        value: null,
        status: '..',
        unit: 'personer',
      },
      {
        Region: '1103',
        Region_label: 'Stavanger',
        ContentsCode: 'Folkemengde',
        ContentsCode_label: 'Folkemengde',
        Tid: '2021',
        Tid_label: '2021',
        value: fakeCellValue(['1103', 'Folkemengde', '2021'], 3),
        status: null,
        unit: 'personer',
      },
    ])
    const sent = fake.received.at(-1)!
    expect(sent.query.get('valueCodes[Region]')).toBe('0301,1103')
    expect(sent.query.get('valueCodes[Tid]')).toBe('range(2020,2021)')
  })

  it('leaves out an eliminable variable, and pages the rows', async () => {
    const { json } = await call('get_table_data', 'table_id=93456&selection=ContentsCode:*;Tid:top(4)&limit=3')
    expect(json.data.cells).toBe(4)
    expect(json.data.rows.map((r: { Tid: string }) => r.Tid)).toEqual(['2024K1', '2024K2', '2024K3'])
    expect(json.data.rows[0]).not.toHaveProperty('NACE')
    expect(json.data.has_more_results).toBe(true)
  })

  it('POSTs a selection too long for a URL', async () => {
    const many = Array.from({ length: 400 }, () => '0301').join(',')
    const { status, json } = await call(
      'get_table_data',
      `table_id=91234&selection=Region:${many};ContentsCode:Fodte;Tid:2024`,
    )
    expect(status).toBe(200)
    expect(json.data.rows).toHaveLength(1)
    expect(fake.received.at(-1)?.method).toBe('POST')
  })

  it('says a selection past the cell limit in a 400 naming selection, counted from the metadata before SSB is asked for data', async () => {
    const fixtures = ssbFixtures()
    const regions = Array.from({ length: 250 }, (_, i) => String(1000 + i))
    const years = Array.from({ length: 50 }, (_, i) => String(1975 + i))
    const category = (codes: string[]) => ({
      index: Object.fromEntries(codes.map((c, i) => [c, i])),
      label: Object.fromEntries(codes.map((c) => [c, `Sted ${c}`])),
    })
    const big = { ...fixtures.metadata['91234']!, id: ['Region', 'ContentsCode', 'Tid'], size: [250, 2, 50] }
    big.dimension = {
      ...big.dimension,
      Region: { ...big.dimension['Region']!, category: category(regions) },
      Tid: { ...big.dimension['Tid']!, category: category(years) },
    }
    const large = await startFakeSsb({ ...fixtures, metadata: { ...fixtures.metadata, '91234': big } })
    try {
      const g = createTestGateway({ sources: ssb(), upstreams: { ssb: large } })
      const over = await g.call(
        'ssb',
        'get_table_data',
        'table_id=91234&selection=Region:*;ContentsCode:*;Tid:from(1990)',
      )
      expect(over.status).toBe(400)
      expect(over.json.error.details[0]).toMatchObject({ parameter: 'selection', rule: 'max_cells' })
      expect(over.json.error.message).toContain(
        'selects 17500 cells (Region 250 × ContentsCode 2 × Tid 35); at most 10000 per call',
      )
      expect(large.received.filter((r) => r.path.endsWith('/data'))).toEqual([])
      const within = await g.call(
        'ssb',
        'get_table_data',
        'table_id=91234&selection=Region:*;ContentsCode:Fodte;Tid:top(40)&limit=10000',
      )
      expect(within.status).toBe(200)
      expect(within.json.data.rows).toHaveLength(10000)
    } finally {
      await large.close()
    }
  })

  it('answers what SSB would refuse with a 400 naming selection, without asking SSB for data', async () => {
    const before = fake.received.filter((r) => r.path.endsWith('/data')).length
    const cases: [string, string][] = [
      ['Region:0301;Tid:2024', 'must also select ContentsCode'],
      ['Fylke:03;ContentsCode:*;Tid:2024', 'names variable "Fylke"'],
      ['Region:9999;ContentsCode:*;Tid:2024', 'value "9999"'],
      ['Region 0301', 'must be variable:values'],
      ['ContentsCode:*;Tid:top(0)', 'top() takes a count'],
      ['ContentsCode:*;Tid:19??', 'selects no value of Tid'],
    ]
    for (const [selection, message] of cases) {
      const { status, json } = await call('get_table_data', `table_id=91234&selection=${encodeURIComponent(selection)}`)
      expect(status, selection).toBe(400)
      expect(json.error.details[0].parameter, selection).toBe('selection')
      expect(json.error.message, selection).toContain(message)
    }
    expect(fake.received.filter((r) => r.path.endsWith('/data')).length).toBe(before)
  })

  it('is a 502 naming SSB when the data call fails, or claims more cells than were asked for', async () => {
    await call('get_table_metadata', 'table_id=91234')
    fake.failWith(fakeReply.status(500), { times: 1, route: '/tables/{id}/data' })
    const down = await call('get_table_data', 'table_id=91234&selection=ContentsCode:Fodte;Tid:2023')
    expect(down.status).toBe(502)
    expect(down.json.error.message).toContain('SSB PxWebApi')
    const huge = {
      class: 'dataset',
      id: ['A', 'B'],
      size: [100000, 100000],
      dimension: { A: { category: {} }, B: { category: {} } },
      value: [],
    }
    fake.failWith(fakeReply.json(huge), { times: 1, route: '/tables/{id}/data' })
    const odd = await call('get_table_data', 'table_id=91234&selection=ContentsCode:Fodte;Tid:2022')
    expect(odd.status).toBe(502)
    expect(odd.json.error.message).toContain('cells where 1 were asked for')
  })
})

describe('ssb entity search', () => {
  const search = async (q: string) => {
    const g = createGateway({ sources: [ssb()], upstreams: { ssb: { baseUrl: fake.baseUrl } }, onError: () => {} })
    const res = await g.handle({
      method: 'GET',
      path: '/api/v1/sok/alle',
      query: `q=${encodeURIComponent(q)}&mode=entities&limit=5`,
      headers: {},
    })
    return JSON.parse(res.body!)
  }

  it('finds tables by words, linked to their metadata', async () => {
    const answer = await search('nyregistrerte foretak')
    expect(answer.coverage.ssb.status).toBe('ok')
    expect(answer.results[0]).toMatchObject({
      type: 'statistics_table',
      id: '93456',
      _links: { api: '/api/v1/kilder/ssb/get_table_metadata?table_id=93456' },
    })
  })

  it('finds a table by its number, and sends SSB only words', async () => {
    expect((await search('91234')).results[0]).toMatchObject({
      type: 'statistics_table',
      id: '91234',
      name: expect.stringContaining('Folkemengde'),
    })
    const answer = await search('folkemengde (region')
    expect(answer.coverage.ssb.status).toBe('ok')
    expect(answer.results[0]).toMatchObject({ id: '91234' })
  })
})
