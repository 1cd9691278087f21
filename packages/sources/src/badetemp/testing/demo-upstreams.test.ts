import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type DemoUpstreams } from '@allmenning/core/testing'
import { demoCalls } from '../../shared/demo-calls.js'
import { badetemp } from '../index.js'
import { DEMO_YR_BADETEMP_KEY, startDemoUpstreams } from './demo-upstreams.js'

let demo: DemoUpstreams
beforeAll(async () => {
  demo = await startDemoUpstreams()
})
afterAll(() => demo.close())

describe('the demo upstreams of badetemp', () => {
  it('play every upstream id the source declares', () => {
    expect(Object.keys(demo.fakes).sort()).toEqual(
      badetemp()
        .upstreams.map((upstream) => upstream.id)
        .sort(),
    )
  })

  it('answer every operation with the key demo for Oslo, the documented calls, the cities and now', async () => {
    const source = badetemp({ apiKey: DEMO_YR_BADETEMP_KEY })
    const gateway = createTestGateway({ sources: source, upstreams: demo.fakes })
    const calls = await demoCalls(gateway, source)
    const oslo = await calls.expectRows('get_nearest_water_temperatures', { lat: 59.91, lon: 10.75 })
    expect(oslo.data.temperatures[0].name).toBe('Sørenga sjøbad')
    // Readings from today, as a live point's.
    expect(Date.now() - Date.parse(oslo.data.temperatures[0].time)).toBeLessThan(2 * 3_600_000)
    const many = await calls.expectRows('get_nearest_water_temperatures', { lat: 59.91, lon: 10.75, limit: 50 })
    expect(many._meta.capped).toMatchObject({ cap: 6, requested_limit: 50 })
    for (const [lat, lon] of [
      [60.39, 5.32],
      [63.43, 10.4],
      [58.97, 5.73],
      [69.65, 18.96],
      [58.15, 8.0],
      [67.28, 14.4],
    ] as const) {
      await calls.expectRows('get_nearest_water_temperatures', { lat, lon })
    }
    await calls.expectRows('get_water_temperatures', { location_id: '0-10027' })
    // Any plausible point id has readings in the demo, as the real service would for its points.
    await calls.expectRows('get_water_temperatures', { location_id: '10-1088746' })
    await calls.expectRows('get_water_temperatures', { location_id: '0-10031' })
    expect(calls.uncalled()).toEqual([])
    expect(gateway.errors).toEqual([])
  })

  it('still refuse another key', async () => {
    const gateway = createTestGateway({ sources: badetemp({ apiKey: 'not-a-key' }), upstreams: demo.fakes })
    expect((await gateway.call('badetemp', 'get_nearest_water_temperatures', { lat: 59.91, lon: 10.75 })).status).toBe(
      502,
    )
  })
})
