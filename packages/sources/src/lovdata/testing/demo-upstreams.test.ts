import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type DemoUpstreams, type TestGateway } from '@allmenning/core/testing'
import { loadOperations } from '@allmenning/core/source'
import { createLovdataPublicData } from '../public-data-client.js'
import { lovdata } from '../lovdata-source.js'
import { startDemoUpstreams } from './index.js'

let demo: DemoUpstreams
let gateway: TestGateway
const operations = new Map((await loadOperations(lovdata())).map((op) => [op.name, op]))
const thisYear = new Date().getUTCFullYear()

beforeAll(async () => {
  demo = await startDemoUpstreams()
  gateway = createTestGateway({ sources: lovdata(), upstreams: demo.fakes })
})
afterAll(() => demo.close())

const call = async (operation: string, query: Record<string, string | number>) => {
  const { status, json } = await gateway.call('lovdata', operation, query)
  expect(status, JSON.stringify(json)).toBe(200)
  expect(v.is(operations.get(operation)!.output as v.GenericSchema, json.data)).toBe(true)
  return json.data
}

// search_rules, get_rule and get_section read the rule datasets: @allmenning/datasets/testing's loadDemoDatasets loads them.
describe('lovdata demo upstreams', () => {
  it('play every upstream the source declares', () => {
    expect(Object.keys(demo.fakes).sort()).toEqual(
      lovdata()
        .upstreams.map((u) => u.id)
        .sort(),
    )
  })

  it('search_case_law: plausible queries find decisions of this year and last year', async () => {
    for (const query of [
      'barnevern',
      'oppsigelse',
      'narkotika',
      'erstatning',
      'skatt',
      'personvern',
      'straff',
      'Høyesterett',
      'vegloven ekspropriasjon',
    ]) {
      const { hits } = await call('search_case_law', { query })
      expect(hits.length, query).toBeGreaterThan(0)
    }
    const { hits } = await call('search_case_law', { query: 'Høyesterett', limit: 100 })
    const years = new Set(hits.map((hit: { hr_number: string }) => Number(hit.hr_number.slice(3, 7))))
    expect(years.has(thisYear) || new Date().getUTCMonth() === 0).toBe(true)
    expect(years.has(thisYear - 1)).toBe(true)
    expect((await call('search_case_law', { query: 'HR-2025-844-A' })).hits).toEqual([
      expect.objectContaining({ hr_number: 'HR-2025-844-A' }),
    ])
  })

  it("list_case_law: this year's and last year's decisions, and the documented year", async () => {
    for (const year of [thisYear - 1, 2025])
      expect((await call('list_case_law', { year })).decisions.length).toBeGreaterThan(0)
    expect((await call('list_case_law', { year: 2025, category: 'sivil' })).decisions.length).toBeGreaterThan(0)
  })

  it('get_case_law: the documented decision and a recent one, with the full text from its PDF', async () => {
    const documented = await call('get_case_law', { ref: 'HR-2025-844-A', full_text: 'yes' })
    expect(documented).toMatchObject({ hr_number: 'HR-2025-844-A', published: '2025-05-09' })
    expect(documented.full_text).toContain('NORGES HØYESTERETT')
    const [recent] = (await call('search_case_law', { query: 'barnevern' })).hits
    const decision = await call('get_case_law', { ref: recent.hr_number, full_text: 'yes' })
    expect(decision.summary).toContain('barnevernsloven')
    expect(decision.full_text).toContain(recent.hr_number)
  })

  it('the public data lists the two archives of rules, rebuilt today, and serves them', async () => {
    const client = createLovdataPublicData({ baseUrl: demo.fakes.lovdata!.baseUrl })
    const files = await client.list()
    expect(files.map((file) => file.filename).sort()).toEqual([
      'gjeldende-lover.tar.bz2',
      'gjeldende-sentrale-forskrifter.tar.bz2',
    ])
    for (const file of files) expect(file.lastModified?.slice(0, 10)).toBe(new Date().toISOString().slice(0, 10))
    const download = await client.download('gjeldende-lover.tar.bz2')
    const chunks: Buffer[] = []
    for await (const chunk of download.body) chunks.push(chunk as Buffer)
    expect(Buffer.concat(chunks).subarray(0, 3).toString()).toBe('BZh')
  })
})
