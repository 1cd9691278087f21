import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type DemoUpstreams } from '@allmenning/core/testing'
import { demoCalls } from '../../shared/demo-calls.js'
import { akvakultur } from '../index.js'
import { startDemoUpstreams } from './demo-upstreams.js'

let demo: DemoUpstreams
beforeAll(async () => {
  demo = await startDemoUpstreams()
})
afterAll(() => demo.close())

describe('the demo upstreams of akvakultur', () => {
  it('play every upstream id the source declares', () => {
    expect(Object.keys(demo.fakes).sort()).toEqual(
      akvakultur()
        .upstreams.map((upstream) => upstream.id)
        .sort(),
    )
  })

  it('answer find_sites_nearby for Oslo, the documented points and the coast from Agder to Finnmark', async () => {
    const source = akvakultur()
    const gateway = createTestGateway({ sources: source, upstreams: demo.fakes })
    const calls = await demoCalls(gateway, source)
    const oslo = await calls.expectRows('find_sites_nearby', { lat: 59.91, lon: 10.75 })
    expect(oslo.data.sites.every((site: { municipality: string }) => site.municipality === 'Oslo')).toBe(true)
    expect(oslo._raw_values.register).toBe('fiskeridir_gis')
    // The JSDoc example and the source check's point, both by Bergen.
    await calls.expectRows('find_sites_nearby', { lat: 60.1, lon: 5.2, radius_km: 15 })
    await calls.expectRows('find_sites_nearby', { lat: 60.37, lon: 5.28, radius_km: 40 })
    for (const [lat, lon] of [
      [58.07, 8.0],
      [59.5, 5.9],
      [63.0, 7.4],
      [63.7, 8.6],
      [68.3, 14.1],
      [69.7, 18.7],
      [70.0, 23.2],
    ]) {
      await calls.expectRows('find_sites_nearby', { lat, lon, radius_km: 25 })
    }
    expect(calls.uncalled()).toEqual([])
    expect(gateway.errors).toEqual([])
  })
})
