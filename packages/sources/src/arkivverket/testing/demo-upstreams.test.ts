import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type DemoUpstreams, type TestGateway } from '@allmenning/core/testing'
import { createRequestBudget } from '../../shared/request-budget.js'
import { arkivverket } from '../index.js'
import { startDemoUpstreams } from './demo-upstreams.js'

let demo: DemoUpstreams
let gateway: TestGateway

beforeAll(async () => {
  demo = await startDemoUpstreams()
  const source = arkivverket({ requestBudget: createRequestBudget({ requests: 1000, perMs: 1, maxWaitMs: 0 }) })
  // Every upstream of the source is played: the demo maps each id the source declares.
  expect(Object.keys(demo.fakes).sort()).toEqual(source.upstreams.map((u) => u.id).sort())
  gateway = createTestGateway({ sources: source, upstreams: demo.fakes })
})
afterAll(() => demo.close())

type Row = {
  property_id: string
  coordinates: { lat: number; lon: number } | null
  residents: { name: string }[] | null
}

describe('the arkivverket demo upstreams', () => {
  it('answer the Oslo point with the default radius: mapped places with residents', async () => {
    const { status, json } = await gateway.call('arkivverket', 'search_census_properties', { lat: 59.91, lon: 10.75 })
    expect(status).toBe(200)
    const rows: Row[] = json.data.properties
    expect(rows.length).toBeGreaterThan(3)
    for (const row of rows) {
      expect(typeof row.coordinates!.lat).toBe('number')
      expect(row.residents!.length).toBeGreaterThan(0)
    }
  })

  it.each(['Oslo', 'Kristiania', 'Hansen', 'Olsen', 'Berg*'])('answer the name %s', async (query) => {
    const { status, json } = await gateway.call('arkivverket', 'search_census_properties', { query, limit: 50 })
    expect(status).toBe(200)
    expect(json.data.properties.length).toBeGreaterThan(0)
  })

  it('answer get_census_property for a recorded id and for any plausible one', async () => {
    for (const property_id of ['bf01036372000241', 'gf01036392000103', 'bf01234567890123']) {
      const { status, json } = await gateway.call('arkivverket', 'get_census_property', { property_id })
      expect(status, property_id).toBe(200)
      expect(json.data.property_id).toBe(property_id)
    }
  })

  it("fill the place field census_properties in the section culture of Oslo's place bundle", async () => {
    const { status, json } = await gateway.get('/api/v1/steder/59.91/10.75', { section: 'culture' })
    expect(status).toBe(200)
    expect(JSON.stringify(json)).toContain('census_properties')
    expect(JSON.stringify(json)).toContain('Dronningens gate 14')
  })

  it('leave nothing unexpected in the gateway', () => {
    expect(gateway.errors).toEqual([])
  })
})
