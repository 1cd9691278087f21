import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type DemoUpstreams } from '@allmenning/core/testing'
import { demoCalls } from '../../shared/demo-calls.js'
import { weather } from '../index.js'
import { startDemoUpstreams } from './demo-upstreams.js'

let demo: DemoUpstreams
beforeAll(async () => {
  demo = await startDemoUpstreams()
})
afterAll(() => demo.close())

const HOUR = 3_600_000
const DAY = 24 * HOUR
const oslo = { lat: 59.91, lon: 10.75 }
/** Harbours beyond the tests' zones: Stavanger, Ålesund, Trondheim, Bodø, Narvik, Hammerfest, Kristiansand's coast. */
const harbours = [
  [58.97, 5.733],
  [62.472, 6.15],
  [63.44, 10.4],
  [67.29, 14.4],
  [68.43, 17.42],
  [70.66, 23.68],
  [58.05, 7.7],
]

describe('the demo upstreams of weather', () => {
  it('play every upstream id the source declares', () => {
    expect(Object.keys(demo.fakes).sort()).toEqual(
      weather()
        .upstreams.map((upstream) => upstream.id)
        .sort(),
    )
  })

  it('answer every operation for Oslo and the documented examples, from now', async () => {
    const source = weather()
    const gateway = createTestGateway({ sources: source, upstreams: demo.fakes })
    const calls = await demoCalls(gateway, source)

    const now = await calls.expectRows('get_current_weather', oslo)
    // The step that holds now: begun within the hour (or the one just gone, should the clock strike meanwhile).
    expect(Date.now() - Date.parse(now.data.time)).toBeGreaterThanOrEqual(0)
    expect(Date.now() - Date.parse(now.data.time)).toBeLessThan(2 * HOUR)
    await calls.expectRows('get_current_weather', { lat: 59.9139, lon: 10.7522 })
    const forecast = await calls.expectRows('get_forecast', oslo)
    expect(Date.parse(forecast.data.at(-1).time) - Date.now()).toBeGreaterThan(DAY)
    await calls.expectRows('get_forecast', { lat: 59.9139, lon: 10.7522 })

    const tides = await calls.expectRows('get_tide_forecast', oslo)
    expect(Math.abs(Date.parse(tides.data[0].time) - Date.now())).toBeLessThan(2 * HOUR)
    await calls.expectRows('get_tide_forecast', { lat: 59.908, lon: 10.735 })
    await calls.expectRows('get_tide_forecast', { lat: 60.398, lon: 5.32, hours: 12, datum: 'msl' })
    const table = await calls.expectRows('get_tide_table', oslo)
    // High and low water from 00:00 UTC today.
    const midnight = Math.floor(Date.now() / DAY) * DAY
    expect(Date.parse(table.data[0].time)).toBeGreaterThanOrEqual(midnight - DAY)
    expect(Date.parse(table.data[0].time)).toBeLessThan(midnight + DAY)
    await calls.expectRows('get_tide_table', { lat: 60.398, lon: 5.32 })
    await calls.expectRows('get_tide_table', { lat: 69.647, lon: 18.955, days: 7, datum: 'nn2000' })
    for (const [lat, lon] of harbours) {
      await calls.expectRows('get_tide_forecast', { lat, lon })
      await calls.expectRows('get_tide_table', { lat, lon })
      await calls.expectRows('get_current_weather', { lat, lon })
    }
    expect(calls.uncalled()).toEqual([])
    expect(gateway.errors).toEqual([])
  })
})
