import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type DemoUpstreams } from '@allmenning/core/testing'
import { demoCalls } from '../../shared/demo-calls.js'
import { avinor } from '../index.js'
import { startDemoUpstreams } from './demo-upstreams.js'

let demo: DemoUpstreams
beforeAll(async () => {
  demo = await startDemoUpstreams()
})
afterAll(() => demo.close())

const HOUR = 3_600_000

describe('the demo upstreams of avinor', () => {
  it('play every upstream id the source declares', () => {
    expect(Object.keys(demo.fakes).sort()).toEqual(
      avinor()
        .upstreams.map((upstream) => upstream.id)
        .sort(),
    )
  })

  it('answer flights around now at Oslo and the other airports, and the documented lookups', async () => {
    const source = avinor()
    const gateway = createTestGateway({ sources: source, upstreams: demo.fakes })
    const calls = await demoCalls(gateway, source)
    const before = Math.floor(Date.now() / HOUR) * HOUR
    const oslo = await calls.expectRows('get_flights', { airport_id: 'OSL' })
    const after = Math.floor(Date.now() / HOUR) * HOUR
    // The window is Avinor's default, one hour back and seven ahead of the current hour.
    for (const flight of oslo.data.flights as { schedule_time: string }[]) {
      expect(Date.parse(flight.schedule_time)).toBeGreaterThanOrEqual(before - HOUR)
      expect(Date.parse(flight.schedule_time)).toBeLessThanOrEqual(after + 7 * HOUR)
    }
    expect(oslo.data.flights.length).toBeGreaterThanOrEqual(10)
    // README, JSDoc and the source check.
    await calls.expectRows('get_flights', { airport_id: 'OSL', direction: 'departures' })
    await calls.expectRows('get_flights', { airport_id: 'OSL', direction: 'arrivals', include_codeshare: true })
    for (const airport of ['BGO', 'TRD', 'SVG', 'TOS', 'BOO', 'bgo']) {
      await calls.expectRows('get_flights', { airport_id: airport })
    }
    const bergen = await calls.expectRows('get_flights', { airport_id: 'BGO', direction: 'arrivals' })
    expect(bergen.data.flights.map((flight: { airport: string }) => flight.airport)).toContain('OSL')
    for (const query of ['Kristian', 'tromso', 'TOS', 'Oslo', 'Bergen'])
      await calls.expectRows('lookup_airport', { query })
    for (const query of ['Norwegian', 'wideroe', 'WF', 'SAS']) await calls.expectRows('lookup_airline', { query })
    expect(calls.uncalled()).toEqual([])
    expect(gateway.errors).toEqual([])
  })

  it('answer a foreign airport with no flights, as Avinor does', async () => {
    const gateway = createTestGateway({ sources: avinor(), upstreams: demo.fakes })
    const res = await gateway.call('avinor', 'get_flights', { airport_id: 'CPH' })
    expect(res.status).toBe(200)
    expect(res.json.data.flights).toEqual([])
  })
})
