import { Counter, Histogram, Registry } from 'prom-client'
import { describe, expect, it } from 'vitest'
import { TalliedCounter, TalliedHistogram } from './tallied-metrics.js'

const bounds = [0.001, 0.01, 0.1, 1]
const observations = [0.0005, 0.001, 0.002, 0.01, 0.5, 1, 3, 0.05, 0.0001]

describe('tallied metrics', () => {
  it("scrape exactly as prom-client's own counter and histogram would, after the same records", async () => {
    const theirs = new Registry()
    const counter = new Counter({
      name: 'x_requests_total',
      help: 'Requests.',
      labelNames: ['route', 'status'],
      registers: [theirs],
    })
    const histogram = new Histogram({
      name: 'x_seconds',
      help: 'Latency.',
      labelNames: ['route'],
      buckets: bounds,
      registers: [theirs],
    })
    const ours = new Registry()
    const talliedCounter = new TalliedCounter('x_requests_total', 'Requests.', ours)
    const talliedHistogram = new TalliedHistogram('x_seconds', 'Latency.', bounds, ours)
    for (const [i, value] of observations.entries()) {
      const route = i % 2 === 0 ? '/a' : '/b "quoted"'
      const status = value > 1 ? '500' : '200'
      counter.inc({ route, status })
      histogram.observe({ route }, value)
      ;(talliedCounter.find(route, status) ?? talliedCounter.add({ route, status }, route, status)).value++
      ;(talliedHistogram.find(route) ?? talliedHistogram.add({ route }, route)).observe(value)
    }
    expect(await ours.metrics()).toBe(await theirs.metrics())
  })

  it('find each series by its own label values, whichever was found last, and none after a reset', () => {
    const counter = new TalliedCounter('y_total', 'Things.', new Registry())
    const ok = counter.add({ route: '/a', status: '200' }, '/a', 200)
    const missing = counter.add({ route: '/a', status: '404' }, '/a', 404)
    const other = counter.add({ route: '/b', status: '200' }, '/b', 200)
    const order = [
      [200, ok],
      [200, ok],
      [404, missing],
      [200, ok],
    ] as const
    for (const [status, series] of order) expect(counter.find('/a', status)).toBe(series)
    expect(counter.find('/b', 200)).toBe(other)
    expect(counter.find('/b', 404)).toBeUndefined()
    expect(counter.find('/a', 200)).toBe(ok)
    counter.reset()
    expect(counter.find('/a', 200)).toBeUndefined()
  })

  it('refuse bucket bounds that do not increase', () => {
    expect(() => new TalliedHistogram('x_seconds', 'Latency.', [0.1, 0.1], new Registry())).toThrow(
      'bucket bounds must increase',
    )
  })
})
