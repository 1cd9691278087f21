import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type DemoUpstreams } from '@allmenning/core/testing'
import { demoCalls } from '../../shared/demo-calls.js'
import { luftkvalitet } from '../index.js'
import { startDemoUpstreams } from './demo-upstreams.js'

let demo: DemoUpstreams
beforeAll(async () => {
  demo = await startDemoUpstreams()
})
afterAll(() => demo.close())

const HOUR = 3_600_000
const oslo = { lat: 59.91, lon: 10.75 }

describe('the demo upstreams of luftkvalitet', () => {
  it('play every upstream id the source declares', () => {
    expect(Object.keys(demo.fakes).sort()).toEqual(
      luftkvalitet()
        .upstreams.map((upstream) => upstream.id)
        .sort(),
    )
  })

  it('answer every operation for Oslo, the documented examples and the listed stations, from the current hour', async () => {
    const source = luftkvalitet()
    const gateway = createTestGateway({ sources: source, upstreams: demo.fakes })
    const calls = await demoCalls(gateway, source)
    const nearby = await calls.expectRows('get_air_quality_nearby', oslo)
    expect(nearby.data[0].municipality_number).toBe('0301')
    await calls.expectRows('get_air_quality_nearby', { lat: 59.9139, lon: 10.7522, limit: 5 })
    await calls.expectRows('get_air_quality_nearby', { ...oslo, limit: 50 })
    await calls.expectRows('get_air_quality_nearby', { ...oslo, radius_km: 10 })

    // The first hour is the current one (or the one just gone, should the clock strike meanwhile).
    const current = (from: string) => Date.now() - Date.parse(from)
    const forecast = await calls.expectRows('get_air_quality_forecast', oslo)
    expect(current(forecast.data.times[0].from)).toBeGreaterThanOrEqual(0)
    expect(current(forecast.data.times[0].from)).toBeLessThan(2 * HOUR)
    await calls.expectRows('get_air_quality_forecast', { lat: 59.9139, lon: 10.7522 })
    await calls.expectRows('get_air_quality_forecast', { lat: 60.39, lon: 5.32 })

    for (const station of nearby.data as { station_id: string }[]) {
      const answer = await calls.expectRows('get_station_forecast', { station_id: station.station_id })
      expect(current(answer.data.times[0].from)).toBeGreaterThanOrEqual(0)
      expect(current(answer.data.times[0].from)).toBeLessThan(2 * HOUR)
    }
    await calls.expectRows('get_station_forecast', { station_id: 'no0057a' })
    expect(calls.uncalled()).toEqual([])
    expect(gateway.errors).toEqual([])
  })
})
