import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type DemoUpstreams } from '@allmenning/core/testing'
import { demoCalls } from '../../shared/demo-calls.js'
import { kystdatahuset } from '../index.js'
import { startDemoUpstreams } from './demo-upstreams.js'

let demo: DemoUpstreams
beforeAll(async () => {
  demo = await startDemoUpstreams()
})
afterAll(() => demo.close())

describe('the demo upstreams of kystdatahuset', () => {
  it('play every upstream id the source declares', () => {
    expect(Object.keys(demo.fakes).sort()).toEqual(
      kystdatahuset()
        .upstreams.map((upstream) => upstream.id)
        .sort(),
    )
  })

  it('answer find_ports_nearby for Oslo, the documented points and the coast', async () => {
    const source = kystdatahuset()
    const gateway = createTestGateway({ sources: source, upstreams: demo.fakes })
    const calls = await demoCalls(gateway, source)
    const oslo = await calls.expectRows('find_ports_nearby', { lat: 59.91, lon: 10.75 })
    expect(oslo.data.havner.length).toBeGreaterThanOrEqual(5)
    // The JSDoc example, the source check's point, and what the public gateway's clients send.
    await calls.expectRows('find_ports_nearby', { lat: 59.9, lon: 10.74, radius_km: 5 })
    await calls.expectRows('find_ports_nearby', { lat: 59.9065, lon: 10.747 })
    await calls.expectRows('find_ports_nearby', { lat: 59.91, lon: 10.75, radius_km: 20, limit: 100 })
    await calls.expectRows('find_ports_nearby', { lat: 59.91, lon: 10.75, type: 'ferry_quay' })
    for (const [lat, lon] of [
      [60.39, 5.32],
      [63.44, 10.4],
      [69.65, 18.96],
      [58.97, 5.73],
      [58.14, 7.99],
    ]) {
      await calls.expectRows('find_ports_nearby', { lat, lon })
    }
    expect(calls.uncalled()).toEqual([])
    expect(gateway.errors).toEqual([])
  })
})
