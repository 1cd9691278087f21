import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type DemoUpstreams } from '@allmenning/core/testing'
import { demoCalls } from '../../shared/demo-calls.js'
import { nobil } from '../index.js'
import { DEMO_NOBIL_KEY, startDemoUpstreams } from './demo-upstreams.js'

let demo: DemoUpstreams
beforeAll(async () => {
  demo = await startDemoUpstreams()
})
afterAll(() => demo.close())

describe('the demo upstreams of nobil', () => {
  it('play every upstream id the source declares', () => {
    expect(Object.keys(demo.fakes).sort()).toEqual(
      nobil()
        .upstreams.map((upstream) => upstream.id)
        .sort(),
    )
  })

  it('answer find_charging_stations with the key demo for Oslo, the documented points and the cities', async () => {
    const source = nobil({ apiKey: DEMO_NOBIL_KEY })
    const gateway = createTestGateway({ sources: source, upstreams: demo.fakes })
    const calls = await demoCalls(gateway, source)
    const oslo = await calls.expectRows('find_charging_stations', { lat: 59.91, lon: 10.75 })
    expect(oslo.data.map((station: { name: string }) => station.name)).toContain('Oslo S P-hus')
    // The JSDoc example, the source check's point, and what the public gateway's clients send.
    await calls.expectRows('find_charging_stations', { lat: 59.91, lon: 10.75, radius_km: 2 })
    await calls.expectRows('find_charging_stations', { lat: 59.9111, lon: 10.7528, radius_km: 5 })
    await calls.expectRows('find_charging_stations', { lat: 59.91, lon: 10.75, radius_km: 15, limit: 100 })
    const cities = [
      ['Bergen', 60.39, 5.32],
      ['Trondheim', 63.43, 10.4],
      ['Stavanger', 58.97, 5.73],
      ['Tromsø', 69.65, 18.96],
      ['Kristiansand', 58.15, 8.0],
      ['Bodø', 67.28, 14.4],
    ] as const
    for (const [city, lat, lon] of cities) {
      const answer = await calls.expectRows('find_charging_stations', { lat, lon, radius_km: 15 })
      expect(answer.data[0].city.toLowerCase()).toContain(city.toLowerCase().slice(0, 5))
    }
    expect(calls.uncalled()).toEqual([])
    expect(gateway.errors).toEqual([])
  })

  it('still refuse another key', async () => {
    const gateway = createTestGateway({ sources: nobil({ apiKey: 'not-a-key' }), upstreams: demo.fakes })
    expect((await gateway.call('nobil', 'find_charging_stations', { lat: 59.91, lon: 10.75 })).status).toBe(502)
  })
})
