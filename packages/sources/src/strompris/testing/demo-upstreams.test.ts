import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type DemoUpstreams, type TestGateway } from '@allmenning/core/testing'
import { loadOperations } from '@allmenning/core/source'
import { addDays, osloDate } from '../../shared/oslo-time.js'
import { strompris } from '../index.js'
import { startDemoUpstreams } from './index.js'

let demo: DemoUpstreams
let gateway: TestGateway
const operations = new Map((await loadOperations(strompris())).map((op) => [op.name, op]))

beforeAll(async () => {
  demo = await startDemoUpstreams()
  gateway = createTestGateway({ sources: strompris(), upstreams: demo.fakes })
})
afterAll(() => demo.close())

const call = async (operation: string, query: Record<string, string | number>) => {
  const { status, json } = await gateway.call('strompris', operation, query)
  expect(status, JSON.stringify(json)).toBe(200)
  expect(v.is(operations.get(operation)!.output as v.GenericSchema, json.data)).toBe(true)
  return json.data
}

// A day has 96 quarter-hours, 92 or 100 on the days summer time starts and ends.
const quarterHours = [92, 96, 100]

describe('strompris demo upstreams', () => {
  it('play every upstream the source declares', () => {
    expect(Object.keys(demo.fakes).sort()).toEqual(
      strompris()
        .upstreams.map((u) => u.id)
        .sort(),
    )
  })

  it("get_prices: today's prices in every area when no date is given", async () => {
    for (const area of ['NO1', 'NO2', 'NO3', 'NO4', 'NO5']) {
      const data = await call('get_prices', { area })
      expect(data.date).toBe(osloDate())
      expect(quarterHours).toContain(data.prices.length)
      expect(data.prices[0].NOK_per_kWh).toEqual(expect.any(Number))
    }
  })

  it('get_prices: the documented days (the JSDoc, the source check)', async () => {
    for (const [area, date, periods] of [
      ['NO1', '2026-11-25', 96],
      ['NO5', '2025-11-12', 96],
      ['NO1', '2025-03-30', 23],
    ] as const) {
      const data = await call('get_prices', { area, date })
      expect(data).toMatchObject({ area, date })
      expect(data.prices).toHaveLength(periods)
    }
  })

  it('get_price_range: the documented ranges and the last week, every day published', async () => {
    const today = osloDate()
    for (const [area, start_date, end_date] of [
      ['NO5', '2026-11-01', '2026-11-07'],
      ['NO1', '2025-03-29', '2025-03-31'],
      ['NO1', addDays(today, -6), today],
    ]) {
      const data = await call('get_price_range', {
        area: area!,
        start_date: start_date!,
        end_date: end_date!,
        limit: 1000,
      })
      expect(data.unpublished_dates).toEqual([])
      expect(data.published_dates.length).toBe(data.start_date === '2025-03-29' ? 3 : 7)
      expect(data.prices.length).toBeGreaterThan(0)
    }
  })

  it('get_prices_at_point: Oslo (59.91, 10.75) lies in NO1, with the price now', async () => {
    for (const point of [
      { lat: 59.91, lon: 10.75 },
      { lat: 59.9129, lon: 10.7563 },
    ]) {
      const data = await call('get_prices_at_point', point)
      expect(data).toMatchObject({ date: osloDate(), area: 'NO1' })
      expect(quarterHours).toContain(data.prices.length)
      expect(Date.parse(data.price_now.time_start)).toBeLessThanOrEqual(Date.now())
      expect(Date.parse(data.price_now.time_end)).toBeGreaterThan(Date.now())
    }
  })
})
