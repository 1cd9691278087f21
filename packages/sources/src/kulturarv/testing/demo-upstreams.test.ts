import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type DemoUpstreams } from '@allmenning/core/testing'
import { demoCalls } from '../../shared/demo-calls.js'
import { kulturarv } from '../index.js'
import { DEMO_DIMU_KEY, startDemoUpstreams } from './demo-upstreams.js'

let demo: DemoUpstreams
beforeAll(async () => {
  demo = await startDemoUpstreams()
})
afterAll(() => demo.close())

describe('the demo upstreams of kulturarv', () => {
  it('play every upstream id the source declares', () => {
    expect(Object.keys(demo.fakes).sort()).toEqual(
      kulturarv()
        .upstreams.map((upstream) => upstream.id)
        .sort(),
    )
  })

  it('answer every operation with the key demo for Oslo, its numbers, the point and the documented examples', async () => {
    const source = kulturarv({ dimuApiKey: DEMO_DIMU_KEY })
    const gateway = createTestGateway({ sources: source, upstreams: demo.fakes })
    const calls = await demoCalls(gateway, source)
    // What the public gateway's clients send, and the JSDoc example.
    const museums = await calls.expectRows('search_heritage_sites', {
      kommune: 'Oslo',
      art: 'Museum-galleri',
      limit: 100,
    })
    expect(museums.data.sites.every((s: { lon_lat: unknown }) => Array.isArray(s.lon_lat))).toBe(true)
    await calls.expectRows('search_heritage_sites', { kommune: '0301' })
    await calls.expectRows('search_heritage_sites', { kommune: '301' })
    await calls.expectRows('search_heritage_sites', { lat: 59.91, lon: 10.75 })
    await calls.expectRows('search_heritage_sites', { lat: 59.91, lon: 10.75, radius_km: 2 })
    await calls.expectRows('search_heritage_sites', { query: 'kirke', kind: 'E-KRK' })
    await calls.expectRows('search_heritage_sites', { bbox: '10.70,59.90,10.78,59.93' })
    await calls.expectRows('search_museum_objects', { query: '*', owner: 'NF' })
    await calls.expectRows('search_museum_objects', { query: '*', owner: 'NF,NMK-B', limit: 10 })
    await calls.expectRows('search_museum_objects', { query: '*', owner: 'NMK-A', limit: 1 })
    // The client's sample object: a museum's name from the heritage rows as the query.
    const sample = await calls.expectRows('search_museum_objects', { query: 'Norsk Folkemuseum', limit: 1 })
    expect(sample.data.objects[0].title).toEqual(expect.any(String))
    await calls.expectRows('list_museums', {})
    await calls.expectRows('list_museums', { query: 'nasjonalmuseet' })
    expect(calls.uncalled()).toEqual([])
    expect(gateway.errors).toEqual([])
  })

  it('still refuse another key', async () => {
    const gateway = createTestGateway({ sources: kulturarv({ dimuApiKey: 'not-a-key' }), upstreams: demo.fakes })
    expect((await gateway.call('kulturarv', 'search_museum_objects', { owner: 'NF' })).status).toBe(502)
  })
})
