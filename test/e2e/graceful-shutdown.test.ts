import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FakeUpstream } from '@allmenning/core/testing'
import { startFakeStatnett, statnettJson, statnettPaths } from '@allmenning/sources/statnett/testing'
import { bundleExample, startBundled } from '../support/bundled-process.js'
import { offlineEnvironment } from '../support/offline-environment.js'

let statnett: FakeUpstream
beforeAll(async () => {
  statnett = await startFakeStatnett()
  // A slow upstream: the request is still in flight when the server is told to stop.
  const flow = statnettJson(
    '[{"OutAreaElspotId":"NO1","InAreaElspotId":"SE3","Value":-1234.5,"MeasureDate":1771062744000}]',
  )
  statnett.route(statnettPaths.flow, () => ({ ...flow, delayMs: 1500 }))
})
afterAll(() => statnett.close())

/** A GET over a keep-alive connection, as a load balancer sends it; resolves with status, body and the Connection header. */
function get(url: string) {
  return new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
    const req = request(url, { headers: { connection: 'keep-alive' } }, (res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => (body += chunk.toString()))
      res.on('end', () => resolve({ status: res.statusCode!, body, connection: res.headers.connection }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe.each(['express-server', 'koa-server'] as const)('the %s example on SIGTERM', (example) => {
  it('answers the request in flight, takes no new ones, and exits 0', { timeout: 30_000 }, async () => {
    const server = await startBundled(
      await bundleExample(example),
      offlineEnvironment({ ALLMENNING_UPSTREAM_STATNETT: statnett.baseUrl }),
    )
    const calls = () => statnett.requests.filter((r) => r.includes(`GetFlow`)).length
    const before = calls()
    const slow = get(`${server.baseUrl}/api/v1/kilder/statnett/get_physical_flow?area=NO1`)
    // Wait until the request has reached the upstream, so it is truly in flight.
    while (calls() === before) await new Promise((resolve) => setTimeout(resolve, 20))
    const signalled = performance.now()
    server.child.kill('SIGTERM')
    await new Promise((resolve) => setTimeout(resolve, 200))
    // The listening socket is closed at once: a new connection is refused.
    await expect(get(`${server.baseUrl}/health`)).rejects.toMatchObject({ code: 'ECONNREFUSED' })

    const answer = await slow
    expect(answer.status, answer.body).toBe(200)
    expect(JSON.parse(answer.body).data).toHaveLength(1)
    expect(await server.exited).toBe(0)
    // It exits as soon as that answer is out, not after a keep-alive timeout.
    expect(performance.now() - signalled).toBeLessThan(4000)
    expect(server.output()).toContain('SIGTERM: finishing the requests in flight')
  })
})
