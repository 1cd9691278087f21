import type { RequestListener, Server } from 'node:http'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { fakeReply, type FakeUpstream } from '@allmenning/core/testing'
import { createApp as createExpressApp } from '../../examples/express-server/src/app.js'
import { createApp as createKoaApp } from '../../examples/koa-server/src/app.js'
import { startFakeStatnett } from '@allmenning/sources/statnett/testing'
import { bundleEntry, startBundled, type BundledProcess } from '../support/bundled-process.js'
import { listenAsTheExamples } from '../support/example-server.js'
import { offlineEnvironment } from '../support/offline-environment.js'

/*
 * The example servers' observability, configured from the environment: Prometheus metrics at
 * ALLMENNING_METRICS_PATH (/metrics by default, off for none) counting what was asked, and the
 * JSON request log on standard output with ALLMENNING_REQUEST_LOG=json.
 */

let statnett: FakeUpstream
beforeAll(async () => {
  statnett = await startFakeStatnett()
})
afterAll(() => statnett.close())

const servers: Server[] = []
afterEach(async () => {
  vi.restoreAllMocks()
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
})

const apps: Record<string, (env: Record<string, string>) => RequestListener> = {
  Express: (env) => createExpressApp(env, { onError: () => {} }),
  Koa: (env) => createKoaApp(env, { gateway: { onError: () => {} } }).callback(),
}

async function serve(example: string, env: Record<string, string>): Promise<string> {
  const { server, base } = await listenAsTheExamples(
    apps[example]!(offlineEnvironment({ ALLMENNING_UPSTREAM_STATNETT: statnett.baseUrl, ...env })),
  )
  servers.push(server)
  return base
}

const status = async (url: string) => {
  const res = await fetch(url)
  await res.arrayBuffer()
  return res.status
}
const line = (scrape: string, series: string) => scrape.split('\n').find((l) => l.startsWith(`${series} `))
const flow = '/api/v1/kilder/statnett/get_physical_flow'

describe.each(Object.keys(apps))('the %s example', (example) => {
  it('serves Prometheus metrics at /metrics that count the traffic it answered', async () => {
    const base = await serve(example, { ALLMENNING_RATE_LIMIT: '4/60' })
    expect(await status(`${base}${flow}?area=NO1`)).toBe(200)
    expect(await status(`${base}${flow}?area=NO1`)).toBe(200)
    // Another area of the flow is read from the answer the gateway already has; another
    // upstream call, production and consumption, meets the failure.
    statnett.failWith(fakeReply.status(503, 'Service Unavailable'), { times: 1 })
    expect(await status(`${base}/api/v1/kilder/statnett/get_production_consumption`)).toBe(502)
    expect(await status(`${base}/api/v1/kilder`)).toBe(200)
    expect(await status(`${base}/api/v1/kilder`)).toBe(429)

    const res = await fetch(`${base}/metrics`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
    const scrape = await res.text()
    const route = '/api/v1/kilder/{source}/{operation}'
    expect(
      line(scrape, `allmenning_requests_total{route="${route}",method="GET",status="200",source="statnett"}`),
    ).toMatch(/ 2$/)
    expect(
      line(scrape, `allmenning_requests_total{route="${route}",method="GET",status="502",source="statnett"}`),
    ).toMatch(/ 1$/)
    expect(
      line(scrape, 'allmenning_requests_total{route="/api/v1/kilder",method="GET",status="429",source=""}'),
    ).toMatch(/ 1$/)
    expect(line(scrape, 'allmenning_cache_lookups_total{source="statnett",outcome="hit"}')).toMatch(/ 1$/)
    expect(line(scrape, 'allmenning_cache_lookups_total{source="statnett",outcome="miss"}')).toMatch(/ 2$/)
    expect(line(scrape, 'allmenning_upstream_calls_total{upstream="statnett",outcome="ok"}')).toMatch(/ 1$/)
    expect(line(scrape, 'allmenning_upstream_errors_total{upstream="statnett",failure="status"}')).toMatch(/ 1$/)
    expect(line(scrape, 'allmenning_rate_limit_refusals_total{quota="default"}')).toMatch(/ 1$/)
    expect(
      line(scrape, `allmenning_request_duration_seconds_count{route="${route}",method="GET",source="statnett"}`),
    ).toMatch(/ 3$/)
  })

  it('serves them where ALLMENNING_METRICS_PATH says, and not at all when it is off', async () => {
    const moved = await serve(example, { ALLMENNING_RATE_LIMIT: 'off', ALLMENNING_METRICS_PATH: '/internal/metrics' })
    expect(await status(`${moved}/internal/metrics`)).toBe(200)
    expect(await status(`${moved}/metrics`)).toBe(404)
    const off = await serve(example, { ALLMENNING_RATE_LIMIT: 'off', ALLMENNING_METRICS_PATH: 'off' })
    expect(await status(`${off}/metrics`)).toBe(404)
  })

  it('writes a JSON line per request to standard output with ALLMENNING_REQUEST_LOG=json, and none without', async () => {
    const written: string[] = []
    const write = process.stdout.write.bind(process.stdout)
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
      if (String(chunk).startsWith('{"time"')) {
        written.push(String(chunk))
        return true
      }
      return (write as (chunk: string | Uint8Array, ...rest: unknown[]) => boolean)(chunk, ...rest)
    })
    const quiet = await serve(example, { ALLMENNING_RATE_LIMIT: 'off' })
    await status(`${quiet}/api/v1/kilder`)
    expect(written).toEqual([])

    const logged = await serve(example, { ALLMENNING_RATE_LIMIT: 'off', ALLMENNING_REQUEST_LOG: 'json' })
    const res = await fetch(`${logged}${flow}?area=NO3`, { headers: { 'x-request-id': 'abc-123' } })
    await res.arrayBuffer()
    expect(written).toHaveLength(1)
    expect(written[0]!.endsWith('\n')).toBe(true)
    expect(JSON.parse(written[0]!)).toMatchObject({
      method: 'GET',
      path: flow,
      route: '/api/v1/kilder/{source}/{operation}',
      status: 200,
      source: 'statnett',
      operation: 'get_physical_flow',
      cache: 'miss',
      request_id: 'abc-123',
    })
  })

  it('stops the start with a message naming a bad ALLMENNING_REQUEST_LOG or ALLMENNING_METRICS_PATH', () => {
    expect(() => apps[example]!(offlineEnvironment({ ALLMENNING_REQUEST_LOG: 'yes' }))).toThrow(
      'ALLMENNING_REQUEST_LOG must be json or off, got "yes"',
    )
    expect(() => apps[example]!(offlineEnvironment({ ALLMENNING_METRICS_PATH: 'metrics' }))).toThrow(
      'ALLMENNING_METRICS_PATH must be a path starting with / or off, got "metrics"',
    )
  })
})

describe('the Lambda example', () => {
  it('writes a JSON line per request with ALLMENNING_REQUEST_LOG=json, for CloudWatch Logs', async () => {
    let lambda: BundledProcess | undefined
    try {
      const env = offlineEnvironment({
        ALLMENNING_UPSTREAM_STATNETT: statnett.baseUrl,
        ALLMENNING_RATE_LIMIT: 'off',
        ALLMENNING_REQUEST_LOG: 'json',
      })
      lambda = await startBundled(await bundleEntry('test/support/lambda-example-process.ts'), env)
      const res = await fetch(`${lambda.baseUrl}${flow}?area=NO4`, { headers: { 'x-request-id': 'lambda-7' } })
      expect(res.status).toBe(200)
      await res.arrayBuffer()
      // The line is written before the answer goes out, but the pipe may bring it a moment later.
      const logged = () =>
        lambda!
          .output()
          .split('\n')
          .filter((l) => l.startsWith('{"time"'))
      for (let waited = 0; logged().length === 0 && waited < 2000; waited += 20)
        await new Promise((resolve) => setTimeout(resolve, 20))
      const lines = logged()
      expect(lines.map((l) => JSON.parse(l))).toEqual([
        expect.objectContaining({
          method: 'GET',
          path: flow,
          status: 200,
          source: 'statnett',
          operation: 'get_physical_flow',
          cache: 'miss',
          request_id: 'lambda-7',
        }),
      ])
    } finally {
      lambda?.child.kill('SIGKILL')
      await lambda?.exited
    }
  })
})
