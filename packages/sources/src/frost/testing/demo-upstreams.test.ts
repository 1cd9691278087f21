import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type DemoUpstreams } from '@allmenning/core/testing'
import { demoCalls } from '../../shared/demo-calls.js'
import { frost } from '../index.js'
import { DEMO_FROST_CLIENT_ID, startDemoUpstreams } from './demo-upstreams.js'

let demo: DemoUpstreams
beforeAll(async () => {
  demo = await startDemoUpstreams()
})
afterAll(() => demo.close())

describe('the demo upstreams of frost', () => {
  it('play every upstream id the source declares', () => {
    expect(Object.keys(demo.fakes).sort()).toEqual(
      frost()
        .upstreams.map((upstream) => upstream.id)
        .sort(),
    )
  })

  it('answer every operation with the client id demo for Oslo (0301, 301, Oslo, 03, 3, the point), the examples and now', async () => {
    const source = frost({ clientId: DEMO_FROST_CLIENT_ID })
    const gateway = createTestGateway({ sources: source, upstreams: demo.fakes })
    const calls = await demoCalls(gateway, source)
    for (const municipality of ['Oslo', '0301', '301', 'OSLO']) {
      const answer = await calls.expectRows('find_stations', { municipality, limit: 100 })
      expect(answer.data.map((s: { id: string }) => s.id)).toContain('SN18700')
    }
    for (const county of ['03', '3', 'Oslo']) await calls.expectRows('find_stations', { county })
    const near = await calls.expectRows('find_stations', { lat: 59.91, lon: 10.75, radius_km: 10 })
    expect(near.data[0].distance_km).toBeLessThan(10)
    await calls.expectRows('find_stations', { name: 'Blindern' })
    await calls.expectRows('find_stations', { municipality: 'Bergen' })
    const latest = await calls.expectRows('get_latest_observations', { station_id: 'SN18700' })
    // The values are from the last hour, as a live station's.
    expect(Date.now() - Date.parse(latest.data.observations[0].time)).toBeLessThan(2 * 3_600_000)
    await calls.expectRows('get_latest_observations', { station_id: 'SN18700', elements: 'air_temperature,wind_speed' })
    // A station in use without recorded values still answers (Blindern's values stand in).
    await calls.expectRows('get_latest_observations', { station_id: 'SN19710' })
    const nearby = await calls.expectRows('find_stations_nearby', { lat: 59.91, lon: 10.75 })
    expect(nearby.data[0].air_temperature).toMatchObject({ unit: 'degC' })
    await calls.expectRows('find_stations_nearby', { lat: 59.91, lon: 10.75, radius_km: 10 })
    for (const [lat, lon] of [
      [60.39, 5.32],
      [63.43, 10.4],
      [58.97, 5.73],
      [69.65, 18.96],
      [58.15, 8.0],
      [67.28, 14.4],
    ] as const) {
      await calls.expectRows('find_stations_nearby', { lat, lon, radius_km: 25 })
    }
    expect(calls.uncalled()).toEqual([])
    expect(gateway.errors).toEqual([])
  })

  it('still refuse another client id', async () => {
    const gateway = createTestGateway({ sources: frost({ clientId: 'not-a-client' }), upstreams: demo.fakes })
    expect((await gateway.call('frost', 'find_stations', { municipality: 'Oslo' })).status).toBe(502)
  })
})
