import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type DemoUpstreams, type TestGateway } from '@allmenning/core/testing'
import { utdanning } from '../index.js'
import { startDemoUpstreams } from './demo-upstreams.js'

let demo: DemoUpstreams
let gateway: TestGateway

beforeAll(async () => {
  demo = await startDemoUpstreams()
  const source = utdanning()
  // Every upstream of the source is played: the demo maps each id the source declares.
  expect(Object.keys(demo.fakes).sort()).toEqual(source.upstreams.map((u) => u.id).sort())
  gateway = createTestGateway({ sources: source, upstreams: demo.fakes })
})
afterAll(() => demo.close())

type Row = { organization_id: string; Navn: string; lat: number | null; lon: number | null }

describe('the utdanning demo upstreams', () => {
  it.each(['0301', '301', 'Oslo'])(
    'answer Oslo (%s) with placed schools and kindergartens at the first call',
    async (kommunenr) => {
      for (const operation of ['search_schools', 'search_kindergartens']) {
        const { status, json } = await gateway.call('utdanning', operation, { kommunenr, limit: 100 })
        expect(status, operation).toBe(200)
        expect(json.data.units.length, operation).toBeGreaterThan(2)
        const placed = json.data.units.filter((row: Row) => row.lat !== null)
        expect(placed.length, operation).toBeGreaterThan(2)
        for (const row of placed) expect([typeof row.lat, typeof row.lon]).toEqual(['number', 'number'])
      }
    },
  )

  it.each(['03', '3'])('answer the county of Oslo (%s)', async (fylkenr) => {
    const { status, json } = await gateway.call('utdanning', 'search_schools', { fylkenr })
    expect(status).toBe(200)
    expect(json.data.units.length).toBeGreaterThan(2)
  })

  it('answer get_unit for a recorded unit and for any other organisation number', async () => {
    for (const organization_id of ['971200006', '988300012', '974590328']) {
      const { status, json } = await gateway.call('utdanning', 'get_unit', { organization_id })
      expect(status, organization_id).toBe(200)
      expect(typeof json.data.lat).toBe('number')
      expect(json.data.Koordinat).toMatchObject({ Breddegrad: expect.any(Number), Lengdegrad: expect.any(Number) })
    }
  })

  it('answer the schools near the Oslo point with the default radius', async () => {
    const { status, json } = await gateway.call('utdanning', 'find_schools_nearby', { lat: 59.91, lon: 10.75 })
    expect(status).toBe(200)
    expect(json.data.units.length).toBeGreaterThan(2)
  })

  it('answer another municipality too', async () => {
    const { json } = await gateway.call('utdanning', 'search_schools', { kommunenr: '4601' })
    expect(json.data.units.length).toBeGreaterThan(0)
  })

  it('leave nothing unexpected in the gateway', () => {
    expect(gateway.errors).toEqual([])
  })
})
