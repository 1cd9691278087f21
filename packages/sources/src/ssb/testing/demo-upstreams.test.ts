import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type DemoUpstreams, type TestGateway } from '@allmenning/core/testing'
import { loadOperations } from '@allmenning/core/source'
import { ssb } from '../index.js'
import { startDemoUpstreams } from './index.js'

let demo: DemoUpstreams
let gateway: TestGateway
const operations = new Map((await loadOperations(ssb())).map((op) => [op.name, op]))

beforeAll(async () => {
  demo = await startDemoUpstreams()
  gateway = createTestGateway({ sources: ssb(), upstreams: demo.fakes })
})
afterAll(() => demo.close())

const call = async (operation: string, query: Record<string, string | number>) => {
  const { status, json } = await gateway.call('ssb', operation, query)
  expect(status, JSON.stringify(json)).toBe(200)
  expect(v.is(operations.get(operation)!.output as v.GenericSchema, json.data)).toBe(true)
  return json.data
}

describe('ssb demo upstreams', () => {
  it('play every upstream the source declares', () => {
    expect(Object.keys(demo.fakes).sort()).toEqual(
      ssb()
        .upstreams.map((u) => u.id)
        .sort(),
    )
  })

  it('search_tables: plausible and documented queries find tables', async () => {
    const ids = async (query: string) =>
      (await call('search_tables', { query })).tables.map((t: { table_id: string }) => t.table_id)
    expect(await ids('befolkning')).toContain('07459')
    expect(await ids('title:befolkning')).toContain('07459')
    expect(await ids('Oslo')).toEqual(['91250', '91251'])
    expect(await ids('folkemengde')).toEqual(expect.arrayContaining(['91250', '91234']))
    expect((await ids('befolkningsframskriving')).length).toBeGreaterThan(2)
    expect(await ids('konsumprisindeks')).toEqual(['91300'])
    expect(await ids('arbeidsledige')).toEqual(['91301'])
    const [table] = (await call('search_tables', { query: 'befolkning', lang: 'en' })).tables
    expect(table).toMatchObject({
      first_period: expect.any(String),
      last_period: expect.any(String),
      time_unit: 'Annual',
    })
  })

  it('get_table_metadata: the documented tables, 07459 with its real variables', async () => {
    const table = await call('get_table_metadata', { table_id: '07459' })
    expect(table.variables.map((variable: { code: string }) => variable.code)).toEqual([
      'Region',
      'Kjonn',
      'Alder',
      'ContentsCode',
      'Tid',
    ])
    const region = table.variables[0]
    expect(region.values).toEqual(
      expect.arrayContaining([
        { code: '0301', label: 'Oslo', unit: null },
        { code: '03', label: 'Oslo', unit: null },
      ]),
    )
    expect((await call('get_table_metadata', { table_id: '91234' })).variables).toHaveLength(3)
  })

  it("get_table_data: Oslo's population in 07459, and the documented selections", async () => {
    const oslo = await call('get_table_data', {
      table_id: '07459',
      selection: 'Region:0301;ContentsCode:Personer1;Tid:top(1)',
    })
    expect(oslo.rows).toEqual([
      expect.objectContaining({
        Region: '0301',
        Region_label: 'Oslo',
        Tid: '2026',
        value: expect.any(Number),
        unit: 'personer',
      }),
    ])
    const county = await call('get_table_data', {
      table_id: '07459',
      selection: 'Region:03;Kjonn:*;ContentsCode:Personer1;Tid:top(3)',
    })
    expect(county.rows).toHaveLength(6)
    const documented = await call('get_table_data', {
      table_id: '91234',
      selection: 'Region:0301,4601;ContentsCode:Folkemengde;Tid:top(3)',
    })
    expect(documented.rows).toHaveLength(6)
    expect(
      (await call('get_table_data', { table_id: '91234', selection: 'Region:*;ContentsCode:*;Tid:*' })).rows.length,
    ).toBeGreaterThan(2)
    const districts = await call('get_table_data', {
      table_id: '91250',
      selection: 'Region:*;ContentsCode:Folkemengde;Tid:top(1)',
    })
    expect(districts.rows).toHaveLength(18)
    const prices = await call('get_table_data', {
      table_id: '91300',
      selection: 'Konsumgrp:TOTAL;ContentsCode:*;Tid:top(12)',
    })
    expect(prices.rows).toHaveLength(24)
    const jobless = await call('get_table_data', {
      table_id: '91301',
      selection: 'Region:03;ContentsCode:Arbledige;Tid:top(1)',
    })
    expect(jobless.rows).toEqual([expect.objectContaining({ Region: '03', Region_label: 'Oslo', Tid: '2026M10' })])
  })
})
