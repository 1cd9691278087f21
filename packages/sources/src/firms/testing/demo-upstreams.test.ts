import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type DemoUpstreams } from '@allmenning/core/testing'
import { demoCalls } from '../../shared/demo-calls.js'
import { FIRMS_PRODUCTS } from '../find-fire-detections.js'
import { firms } from '../index.js'
import { DEMO_FIRMS_KEY, startDemoUpstreams } from './demo-upstreams.js'

let demo: DemoUpstreams
beforeAll(async () => {
  demo = await startDemoUpstreams()
})
afterAll(() => demo.close())

const DAY_MS = 86_400_000

describe('the demo upstreams of firms', () => {
  it('play every upstream id the source declares', () => {
    expect(Object.keys(demo.fakes).sort()).toEqual(
      firms()
        .upstreams.map((upstream) => upstream.id)
        .sort(),
    )
  })

  it('answer find_fire_detections with the key demo for Oslo, every product and the documented points, within the days', async () => {
    const source = firms({ mapKey: DEMO_FIRMS_KEY })
    const gateway = createTestGateway({ sources: source, upstreams: demo.fakes })
    const calls = await demoCalls(gateway, source)
    const oslo = await calls.expectRows('find_fire_detections', { lat: 59.91, lon: 10.75 })
    for (const detection of oslo.data.detections as { acquired_at: string }[]) {
      const age = Date.now() - Date.parse(detection.acquired_at)
      expect(age).toBeGreaterThanOrEqual(0)
      expect(age).toBeLessThanOrEqual(DAY_MS)
    }
    for (const product of FIRMS_PRODUCTS) {
      const answer = await calls.expectRows('find_fire_detections', { lat: 59.91, lon: 10.75, product })
      expect(answer.data.detections[0].instrument).toBe(product.startsWith('MODIS') ? 'MODIS' : 'VIIRS')
    }
    const noaa20 = await calls.expectRows('find_fire_detections', {
      lat: 59.91,
      lon: 10.75,
      product: 'VIIRS_NOAA20_NRT',
    })
    expect(noaa20.data.detections[0].satellite).toBe('N20')
    // The JSDoc example, the source check's point, and more days reaching further back.
    await calls.expectRows('find_fire_detections', { lat: 58.9, lon: 6.1, radius_km: 50, days: 3 })
    await calls.expectRows('find_fire_detections', { lat: 58.334, lon: 6.299, radius_km: 30 })
    const week = await calls.expectRows('find_fire_detections', { lat: 59.91, lon: 10.75, radius_km: 50, days: 5 })
    expect(week.data.detections.length).toBeGreaterThan(oslo.data.detections.length)
    for (const [lat, lon] of [
      [60.39, 5.32],
      [63.43, 10.4],
    ])
      await calls.expectRows('find_fire_detections', { lat, lon })
    expect(calls.uncalled()).toEqual([])
    expect(gateway.errors).toEqual([])
  })

  it('still refuse another key, as FIRMS does', async () => {
    const gateway = createTestGateway({ sources: firms({ mapKey: 'not-a-key' }), upstreams: demo.fakes })
    expect((await gateway.call('firms', 'find_fire_detections', { lat: 59.91, lon: 10.75 })).status).toBe(502)
  })
})
