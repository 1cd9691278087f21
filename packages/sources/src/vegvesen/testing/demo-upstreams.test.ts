import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DemoUpstreams } from '@allmenning/core/testing'
import { createTestGateway, type TestGateway } from '@allmenning/core/testing'
import { osloDate } from '../../shared/oslo-time.js'
import { vegvesen } from '../index.js'
import { DEMO_DATEX_PASSWORD, DEMO_DATEX_USERNAME, startDemoUpstreams } from './demo-upstreams.js'

let demo: DemoUpstreams
let gateway: TestGateway

beforeAll(async () => {
  demo = await startDemoUpstreams()
  gateway = createTestGateway({
    sources: vegvesen({ datexUsername: DEMO_DATEX_USERNAME, datexPassword: DEMO_DATEX_PASSWORD }),
    upstreams: Object.fromEntries(Object.entries(demo.fakes).map(([id, fake]) => [id, { baseUrl: fake.baseUrl }])),
  })
})
afterAll(() => demo.close())

const call = async (operation: string, query: Record<string, string | number | boolean>) => {
  const { status, json } = await gateway.call('vegvesen', operation, query)
  expect([operation, query, status]).toEqual([operation, query, 200])
  return json.data
}
const oslo = { lat: 59.91, lon: 10.75 }

describe('the demo upstreams of vegvesen', () => {
  it('play every upstream of the source, the DATEX server with the username and password demo', async () => {
    expect(Object.keys(demo.fakes).sort()).toEqual(
      vegvesen()
        .upstreams.map((u) => u.id)
        .sort(),
    )
    const refused = createTestGateway({
      sources: vegvesen({ datexUsername: 'demo', datexPassword: 'not-demo' }),
      upstreams: { vegvesen_datex: { baseUrl: demo.fakes['vegvesen_datex']!.baseUrl } },
    })
    expect((await refused.call('vegvesen', 'get_traffic_messages', oslo)).status).toBe(502)
  })

  it('answer the points near Oslo, in Oslo county however it is written, on its roads and by name', async () => {
    const near = await call('find_registration_points_nearby', oslo)
    expect(near.length).toBeGreaterThan(2)
    for (const county of [3, '3', '03']) {
      const rows = await call('find_traffic_points', { county_number: county, limit: 100 })
      expect(rows.length, String(county)).toBeGreaterThan(2)
      expect(
        rows.every(
          (p: { county_number: number; lat: unknown; coordinates: unknown }) =>
            p.county_number === 3 && typeof p.lat === 'number' && p.coordinates,
        ),
      ).toBe(true)
    }
    const around = await call('find_traffic_points', { ...oslo, radius_km: 5, operational_only: true, limit: 100 })
    expect(around.length).toBeGreaterThan(2)
    // The counters count until now in the demo.
    expect(around[0].latest_hourly_data.slice(0, 10)).toBe(osloDate())
    expect(
      (await call('find_registration_points_by_road', { road: 'E18', county_number: '03' })).length,
    ).toBeGreaterThan(0)
    for (const query of ['Oslo', 'Ulven', '44656V72812', 'Kaiparken']) {
      expect((await call('search_registration_points', { query })).length, query).toBeGreaterThan(0)
    }
  })

  it("answer the documented volumes and the last day's, today included", async () => {
    const documented = await call('get_traffic_volume', {
      registration_point_id: '44656V72812',
      resolution: 'day',
      from: '2026-11-01',
      to: '2026-11-25',
    })
    expect(documented.volumes).toHaveLength(24)
    const lastDay = await call('get_traffic_volume', { registration_point_id: '44656V72812' })
    expect(lastDay.volumes).toHaveLength(24)
    expect(lastDay.volumes.every((row: { volume: number | null }) => typeof row.volume === 'number')).toBe(true)
    const today = await call('get_traffic_volume', { registration_point_id: '10234V1110001', from: osloDate() })
    expect(today.volumes.length).toBeGreaterThan(0)
    expect(today.volumes[0].from.slice(0, 10)).toBe(osloDate())
  })

  it('answer the traffic messages in force near Oslo now, and those planned', async () => {
    const now = await call('get_traffic_messages', { ...oslo, limit: 100 })
    expect(now.messages.length).toBeGreaterThan(1)
    expect(now.messages.every((m: { active: boolean; lat: unknown }) => m.active && typeof m.lat === 'number')).toBe(
      true,
    )
    const planned = await call('get_traffic_messages', { ...oslo, radius_km: 20, include_planned: true, limit: 100 })
    expect(planned.messages.some((m: { status: string }) => m.status === 'planned')).toBe(true)
    const bundle = await gateway.get('/api/v1/steder/59.91/10.75', { section: 'transport' })
    expect(bundle.json.fields.traffic_messages.status).toBe('ok')
    expect(bundle.json.fields.traffic_registration_points.status).toBe('ok')
  })
})
