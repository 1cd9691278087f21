import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type DemoUpstreams, type TestGateway } from '@allmenning/core/testing'
import { loadOperations } from '@allmenning/core/source'
import { statnett } from '../index.js'
import { startDemoUpstreams } from './index.js'

let demo: DemoUpstreams
let gateway: TestGateway
const operations = new Map((await loadOperations(statnett())).map((op) => [op.name, op]))
const output = (name: string) => operations.get(name)!.output as v.GenericSchema

beforeAll(async () => {
  demo = await startDemoUpstreams()
  gateway = createTestGateway({ sources: statnett(), upstreams: demo.fakes })
})
afterAll(() => demo.close())

const call = async (operation: string, query: Record<string, string | number> = {}) => {
  const { status, json } = await gateway.call('statnett', operation, query)
  expect(status, JSON.stringify(json)).toBe(200)
  expect(v.is(output(operation), json.data)).toBe(true)
  return json.data
}

describe('statnett demo upstreams', () => {
  it('play every upstream the source declares', () => {
    expect(Object.keys(demo.fakes).sort()).toEqual(
      statnett()
        .upstreams.map((u) => u.id)
        .sort(),
    )
  })

  it('get_physical_flow: every interconnector, measured within the last minute', async () => {
    const flows = await call('get_physical_flow', { limit: 100 })
    expect(flows.length).toBeGreaterThan(10)
    for (const flow of flows) expect(Date.now() - Date.parse(flow.time)).toBeLessThan(2 * 60_000)
    const oslo = await call('get_physical_flow', { area: 'NO1' })
    expect(oslo.length).toBeGreaterThan(0)
  })

  it('get_production_consumption: the latest figures per country, measured now', async () => {
    const data = await call('get_production_consumption')
    expect(Date.now() - Date.parse(data.measured_at)).toBeLessThan(2 * 60_000)
    expect(Date.parse(data.measured_at)).toBeLessThanOrEqual(Date.now())
    expect(Object.keys(data.countries)).toContain('NO')
    expect(data.countries.NO.production_mw).toBeGreaterThan(0)
  })

  it('get_power_situation: all five areas, and one', async () => {
    expect((await call('get_power_situation')).map((s: { area: string }) => s.area)).toEqual([
      'NO1',
      'NO2',
      'NO3',
      'NO4',
      'NO5',
    ])
    expect(await call('get_power_situation', { area: 'NO1' })).toEqual([
      expect.objectContaining({ area: 'NO1', status: expect.any(String) }),
    ])
  })

  it('get_price_area: Oslo (59.91, 10.75) and the documented point lie in NO1, with its power situation', async () => {
    for (const point of [
      { lat: 59.91, lon: 10.75 },
      { lat: 59.9129, lon: 10.7563 },
    ]) {
      const data = await call('get_price_area', point)
      expect(data).toMatchObject({ area: 'NO1', basis: 'county', municipality_number: '0301', county: 'Oslo' })
      expect(data.power_situation.status).toEqual(expect.any(String))
    }
  })

  it('get_price_area: a town of each other area lies in its area', async () => {
    const towns = { NO2: [58.146, 7.995], NO3: [63.43, 10.395], NO4: [69.65, 18.956], NO5: [60.3913, 5.3221] }
    for (const [area, [lat, lon]] of Object.entries(towns))
      expect((await call('get_price_area', { lat: lat!, lon: lon! })).area).toBe(area)
    // At sea no address is near: a 200 that says so.
    expect(await call('get_price_area', { lat: 66, lon: 2 })).toMatchObject({ area: null, basis: 'none' })
  })

  it("Kartverket's address search finds the demo's addresses by words too", async () => {
    const res = await fetch(`${demo.fakes.kartverket_adresser!.baseUrl}/sok?sok=markens%20kristiansand`)
    const body = (await res.json()) as {
      metadata: { totaltAntallTreff: number }
      adresser: Array<{ adressetekst: string; kommunenummer: string }>
    }
    expect(body.metadata.totaltAntallTreff).toBe(1)
    expect(body.adresser[0]).toMatchObject({ adressetekst: 'Markens gate 1', kommunenummer: '4204' })
  })
})
