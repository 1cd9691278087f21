import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type DemoUpstreams, type TestGateway } from '@allmenning/core/testing'
import { nyheter } from '../index.js'
import { startDemoUpstreams } from './demo-upstreams.js'

let demo: DemoUpstreams
let gateway: TestGateway

beforeAll(async () => {
  demo = await startDemoUpstreams()
  const source = nyheter()
  // Every upstream of the source is played: the demo maps each id the source declares.
  expect(Object.keys(demo.fakes).sort()).toEqual(source.upstreams.map((u) => u.id).sort())
  gateway = createTestGateway({ sources: source, upstreams: demo.fakes })
})
afterAll(() => demo.close())

interface Row {
  id: string
  name: string
  lat: number
  lon: number
  source: string
  pub_date: string
  placed_by: string
}

describe('the nyheter demo upstreams', () => {
  it('answer a point in Oslo with the default radius: police messages and NRK news of the last 24 hours, placed', async () => {
    const { status, json } = await gateway.call('nyheter', 'search_news', { lat: 59.91, lon: 10.75 })
    expect(status).toBe(200)
    const items = json.data.items as Row[]
    expect(items.filter((r) => r.source === 'Politiloggen').length).toBeGreaterThan(5)
    expect(items.filter((r) => r.source === 'NRK').length).toBeGreaterThan(2)
    const dayAgo = Date.now() - 24 * 3_600_000
    for (const row of items) {
      expect(typeof row.lat).toBe('number')
      expect(typeof row.lon).toBe('number')
      expect(Date.parse(row.pub_date)).toBeGreaterThanOrEqual(dayAgo)
    }
    expect(items.map((r) => r.pub_date)).toEqual(
      items
        .map((r) => r.pub_date)
        .sort()
        .reverse(),
    )
  })

  it("answer the public gateway's documented call: radius_km=20, limit=100 and a since", async () => {
    const since = `${new Date(Date.now() - 6 * 3_600_000).toISOString().slice(0, 19)}Z`
    const { status, json } = await gateway.call('nyheter', 'search_news', {
      lat: 59.91,
      lon: 10.75,
      radius_km: 20,
      limit: 100,
      since,
    })
    expect(status).toBe(200)
    expect(json.data.items.length).toBeGreaterThan(0)
  })

  it.each(['0301', '301', 'Oslo'])('answer Oslo (%s) as a municipality filter', async (municipality) => {
    const { status, json } = await gateway.call('nyheter', 'search_news', { lat: 59.91, lon: 10.75, municipality })
    expect(status).toBe(200)
    expect(json.data.items.length).toBeGreaterThan(3)
    expect(json.data.items.every((r: { municipality: string }) => r.municipality === 'Oslo')).toBe(true)
  })

  it('fill the news place field of a point in Oslo', async () => {
    const place = await gateway.get('/api/v1/steder/59.91/10.75', { fields: 'news' })
    expect(place.status).toBe(200)
    const field = place.json.fields.news
    expect(field).toMatchObject({ status: 'ok', source: 'nyheter', operation: 'search_news' })
    expect(field.data.items.length).toBeGreaterThan(0)
  })

  it('leave nothing unexpected in the gateway', () => {
    expect(gateway.errors).toEqual([])
  })
})
