import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { get, loadedPriceList, shopGateway, startShopUpstreams } from '../testing/shop-fixture.js'
import { prometheusMetrics } from './prometheus-metrics.js'

let fake: Awaited<ReturnType<typeof startShopUpstreams>>
beforeAll(async () => {
  fake = await startShopUpstreams()
})
afterAll(() => fake.close())

const operation = (name: string) => `/api/v1/kilder/shop/${name}`

/** The value of one series in a scrape, labels in any order; undefined when the series is not there. */
function valueOf(scrape: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of scrape.split('\n')) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!match || match[1] !== name) continue
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]),
    )
    if (
      Object.keys(found).length === Object.keys(labels).length &&
      Object.entries(labels).every(([k, value]) => found[k] === value)
    )
      return Number(match[3])
  }
  return undefined
}

describe('prometheusMetrics after known traffic', () => {
  let scrape = ''
  let contentType = ''

  beforeAll(async () => {
    const metrics = prometheusMetrics()
    const gateway = shopGateway(fake, { observers: [metrics.observer] })
    // A miss, then a hit of the same answer.
    expect((await get(gateway, operation('stock_items'), 'kind=a')).status).toBe(200)
    expect((await get(gateway, operation('stock_items'), 'kind=a')).status).toBe(200)
    // Two identical requests at once: one upstream call, the second joins it.
    const pair = await Promise.all([
      get(gateway, operation('stock_items'), 'kind=b'),
      get(gateway, operation('stock_items'), 'kind=b'),
    ])
    expect(pair.map((r) => r.status)).toEqual([200, 200])
    // Two 503s in a row open the stock breaker; the third request finds it resting.
    fake.stockFails(true)
    for (const kind of ['c', 'd', 'e'])
      expect((await get(gateway, operation('stock_items'), `kind=${kind}`)).status).toBe(502)
    // A call that never answers, timed out at 150 ms.
    expect((await get(gateway, operation('warehouse_items'))).status).toBe(502)
    // An answer served stale once its upstream fails after it expired.
    expect((await get(gateway, operation('depot_items'))).status).toBe(200)
    fake.depotFails(true)
    const realNow = Date.now
    Date.now = () => realNow() + 120_000
    try {
      const stale = await get(gateway, operation('depot_items'))
      expect(stale.status).toBe(200)
      expect(stale.headers['cache-status']).toContain('fwd=stale')
    } finally {
      Date.now = realNow
    }
    // Three requests from one client over a quota of two: the third is refused.
    for (let i = 0; i < 3; i++) await get(gateway, '/api/v1/kilder', '', { clientAddress: '198.51.100.7' })
    // A path no route has.
    expect((await get(gateway, '/api/v1/no-such-route')).status).toBe(404)
    ;({ body: scrape, contentType } = await metrics.scrape())
  })

  it('is served in the text exposition format', () => {
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/)
    expect(scrape).toContain('# TYPE allmenning_requests_total counter')
  })

  it('counts requests by route, method, status and source', () => {
    const route = '/api/v1/kilder/{source}/{operation}'
    expect(valueOf(scrape, 'allmenning_requests_total', { route, method: 'GET', status: '200', source: 'shop' })).toBe(
      6,
    )
    expect(valueOf(scrape, 'allmenning_requests_total', { route, method: 'GET', status: '502', source: 'shop' })).toBe(
      4,
    )
    expect(
      valueOf(scrape, 'allmenning_requests_total', {
        route: '/api/v1/kilder',
        method: 'GET',
        status: '200',
        source: '',
      }),
    ).toBe(2)
    expect(
      valueOf(scrape, 'allmenning_requests_total', {
        route: '/api/v1/kilder',
        method: 'GET',
        status: '429',
        source: '',
      }),
    ).toBe(1)
    expect(
      valueOf(scrape, 'allmenning_requests_total', { route: 'unmatched', method: 'GET', status: '404', source: '' }),
    ).toBe(1)
  })

  it('has a latency histogram per route and source', () => {
    const labels = { route: '/api/v1/kilder/{source}/{operation}', method: 'GET', source: 'shop' }
    expect(valueOf(scrape, 'allmenning_request_duration_seconds_count', labels)).toBe(10)
    expect(valueOf(scrape, 'allmenning_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(10)
    // The timed-out call took at least its 150 ms.
    expect(valueOf(scrape, 'allmenning_request_duration_seconds_sum', labels)).toBeGreaterThan(0.15)
  })

  it('counts cache hits, misses, stale answers and single-flight joins', () => {
    expect(valueOf(scrape, 'allmenning_cache_lookups_total', { source: 'shop', outcome: 'hit' })).toBe(1)
    expect(valueOf(scrape, 'allmenning_cache_lookups_total', { source: 'shop', outcome: 'miss' })).toBe(8)
    expect(valueOf(scrape, 'allmenning_cache_lookups_total', { source: 'shop', outcome: 'stale' })).toBe(1)
    expect(valueOf(scrape, 'allmenning_single_flight_joins_total', { source: 'shop' })).toBe(1)
  })

  it('counts upstream calls, errors and timeouts by upstream', () => {
    expect(valueOf(scrape, 'allmenning_upstream_calls_total', { upstream: 'stock', outcome: 'ok' })).toBe(2)
    expect(valueOf(scrape, 'allmenning_upstream_calls_total', { upstream: 'stock', outcome: 'error' })).toBe(3)
    expect(valueOf(scrape, 'allmenning_upstream_errors_total', { upstream: 'stock', failure: 'status' })).toBe(2)
    expect(valueOf(scrape, 'allmenning_upstream_errors_total', { upstream: 'stock', failure: 'resting' })).toBe(1)
    expect(valueOf(scrape, 'allmenning_upstream_calls_total', { upstream: 'warehouse', outcome: 'timeout' })).toBe(1)
    expect(valueOf(scrape, 'allmenning_upstream_errors_total', { upstream: 'warehouse', failure: 'timeout' })).toBe(1)
    expect(valueOf(scrape, 'allmenning_upstream_calls_total', { upstream: 'depot', outcome: 'ok' })).toBe(1)
    expect(valueOf(scrape, 'allmenning_upstream_calls_total', { upstream: 'depot', outcome: 'error' })).toBe(1)
    expect(valueOf(scrape, 'allmenning_upstream_call_duration_seconds_count', { upstream: 'stock' })).toBe(5)
  })

  it('shows the breaker that opened, and only that one', () => {
    expect(valueOf(scrape, 'allmenning_upstream_breaker_state', { upstream: 'stock' })).toBe(1)
    expect(valueOf(scrape, 'allmenning_upstream_breaker_opens_total', { upstream: 'stock' })).toBe(1)
    expect(valueOf(scrape, 'allmenning_upstream_breaker_opens_total', { upstream: 'depot' })).toBeUndefined()
  })

  it("reports each source's health state and its last good answer, read when scraped", () => {
    // The stock upstream failed three times in a row after its good answers: failing, with one series set.
    expect(valueOf(scrape, 'allmenning_source_state', { source: 'shop', state: 'failing' })).toBe(1)
    expect(valueOf(scrape, 'allmenning_source_state', { source: 'shop', state: 'ok' })).toBe(0)
    const lastOk = valueOf(scrape, 'allmenning_source_last_ok_timestamp_seconds', { source: 'shop' })
    expect(Math.abs(Date.now() / 1000 - (lastOk ?? 0))).toBeLessThan(300)
  })

  it('counts rate-limit refusals by quota', () => {
    expect(valueOf(scrape, 'allmenning_rate_limit_refusals_total', { quota: 'default' })).toBe(1)
  })

  it('reports the dataset versions loaded, read when scraped', () => {
    expect(valueOf(scrape, 'allmenning_dataset_loaded', { dataset: 'price_list' })).toBe(1)
    expect(valueOf(scrape, 'allmenning_dataset_rows', { dataset: 'price_list' })).toBe(3)
    expect(
      valueOf(scrape, 'allmenning_dataset_version_info', {
        dataset: 'price_list',
        loaded_at: loadedPriceList.loadedAt,
        published_at: '2026-10-31',
      }),
    ).toBe(1)
  })
})

describe('prometheusMetrics', () => {
  it('keeps each gateway in a registry of its own, and a made-up method in one series', async () => {
    const first = prometheusMetrics()
    const second = prometheusMetrics()
    const gateway = shopGateway(fake, { observers: [first.observer], rateLimit: undefined })
    await get(gateway, '/api/v1/kilder', '', { method: 'BREW' })
    await get(gateway, '/api/v1/kilder', '', { method: 'MKCOL' })
    const { body } = await first.scrape()
    expect(
      valueOf(body, 'allmenning_requests_total', {
        route: '/api/v1/kilder',
        method: '_OTHER',
        status: '405',
        source: '',
      }),
    ).toBe(2)
    expect(
      valueOf((await second.scrape()).body, 'allmenning_requests_total', {
        route: '/api/v1/kilder',
        method: '_OTHER',
        status: '405',
        source: '',
      }),
    ).toBeUndefined()
  })

  it('says a dataset the store has not loaded is not loaded', async () => {
    const metrics = prometheusMetrics()
    shopGateway(fake, { observers: [metrics.observer], datasets: { reader: () => undefined } })
    const { body } = await metrics.scrape()
    expect(valueOf(body, 'allmenning_dataset_loaded', { dataset: 'price_list' })).toBe(0)
    expect(body).not.toContain('allmenning_dataset_version_info{')
  })
})
