import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type DemoUpstreams } from '@allmenning/core/testing'
import { demoCalls } from '../../shared/demo-calls.js'
import { ais } from '../index.js'
import { DEMO_BARENTSWATCH_CLIENT, startDemoUpstreams } from './demo-upstreams.js'

let demo: DemoUpstreams
beforeAll(async () => {
  demo = await startDemoUpstreams()
})
afterAll(() => demo.close())

describe('the demo upstreams of ais', () => {
  it('play every upstream id the source declares', () => {
    expect(Object.keys(demo.fakes).sort()).toEqual(
      ais()
        .upstreams.map((upstream) => upstream.id)
        .sort(),
    )
  })

  it('answer find_vessels_nearby for Oslo and the documented points, with the client demo/demo and reports of now', async () => {
    const source = ais(DEMO_BARENTSWATCH_CLIENT)
    const gateway = createTestGateway({ sources: source, upstreams: demo.fakes })
    const calls = await demoCalls(gateway, source)
    const oslo = await calls.expectRows('find_vessels_nearby', { lat: 59.91, lon: 10.75 })
    expect(oslo.data.fartoy.map((vessel: { navn: string | null }) => vessel.navn)).toContain('COLOR MAGIC')
    // Each report is moved to now: the newest a few seconds old, none from the recording's day.
    const age = (vessel: { sist_oppdatert: string }) =>
      Date.now() - Date.parse(vessel.sist_oppdatert.replace(/\.\d+/, ''))
    const ages = oslo.data.fartoy.map(age)
    expect(Math.min(...ages)).toBeLessThan(60_000)
    expect(Math.max(...ages)).toBeLessThan(30 * 60_000)
    // The JSDoc example (Bergen), the source check's point, and the ports beyond the recording.
    await calls.expectRows('find_vessels_nearby', { lat: 60.39, lon: 5.32, radius_km: 10 })
    await calls.expectRows('find_vessels_nearby', { lat: 59.905, lon: 10.72, radius_km: 5 })
    for (const [lat, lon] of [
      [58.97, 5.733],
      [63.44, 10.4],
      [69.65, 18.96],
      [58.145, 7.99],
      [67.29, 14.4],
      [62.47, 6.15],
    ]) {
      await calls.expectRows('find_vessels_nearby', { lat, lon })
    }
    expect(calls.uncalled()).toEqual([])
    expect(gateway.errors).toEqual([])
  })

  it('still refuse a client the identity service does not know', async () => {
    const gateway = createTestGateway({
      sources: ais({ clientId: 'demo', clientSecret: 'wrong' }),
      upstreams: demo.fakes,
    })
    const res = await gateway.call('ais', 'find_vessels_nearby', { lat: 59.91, lon: 10.75 })
    expect(res.status).toBe(502)
    expect(res.json.error.code).toBe('upstream_error')
  })
})
