import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../examples/express-server/src/app.js'
import { startFakeStatnett } from '../support/fake-statnett.js'
import type { FakeUpstream } from '../support/fake-upstream.js'

let fake: FakeUpstream
let server: Server
let base: string

beforeAll(async () => {
  fake = await startFakeStatnett()
  const app = createApp({ ALLMENNING_UPSTREAM_STATNETT: fake.baseUrl }, { onError: () => {} })
  server = createServer({ maxHeaderSize: 64 * 1024 }, app)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()))
  await fake.close()
})

/** A raw request, so paths and queries reach the server byte for byte as written. */
function raw(path: string, init: { method?: string; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('the example Express server against a local Statnett', () => {
  it('answers an operation with the envelope, its ETag and Cache-Control', async () => {
    const res = await raw('/api/v1/kilder/statnett/get_physical_flow?area=NO2&limit=2')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.headers.etag).toMatch(/^W\/".+"$/)
    expect(res.headers['cache-control']).toBe('public, max-age=300')
    const body = JSON.parse(res.body)
    expect(Object.keys(body)).toEqual(['source', 'operation', 'parameters', 'data', 'entities', '_meta', '_provenance', '_links'])
    expect(body).toMatchObject({
      source: 'statnett',
      operation: 'get_physical_flow',
      parameters: { area: 'NO2', limit: 2, offset: 0 },
      _meta: { language: 'en', pagination: { limit: 2, offset: 0, returned: 2, has_more_results: true, total: 4 } },
      _provenance: {
        data: { source: 'Statnett SF', source_api: `${fake.baseUrl}/PhysicalFlowMap/GetFlow` },
        entities: { source: 'allmenning', derived_from: 'data' },
      },
      _links: { self: '/api/v1/kilder/statnett/get_physical_flow?area=NO2&limit=2&offset=0', source: '/api/v1/kilder/statnett' },
    })
    expect(body.data).toHaveLength(2)
    expect(body._meta.retrieved_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
  })

  it('answers If-None-Match with an empty 304 and HEAD with headers only', async () => {
    const first = await raw('/api/v1/kilder/statnett/get_power_situation')
    const conditional = await raw('/api/v1/kilder/statnett/get_power_situation', { headers: { 'if-none-match': String(first.headers.etag) } })
    expect(conditional.status).toBe(304)
    expect(conditional.body).toBe('')
    expect(conditional.headers.etag).toBe(first.headers.etag)
    const head = await raw('/api/v1/kilder/statnett/get_power_situation', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.body).toBe('')
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(first.body)))
  })

  it.each([
    ['/api/v1/kilder/statnett/get_physical_flow?limit=0', 400, 'invalid_parameter'],
    ['/api/v1/kilder/statnett/get_physical_flow?limit=101', 400, 'invalid_parameter'],
    ['/api/v1/kilder/statnett/get_physical_flow?limit=abc', 400, 'invalid_parameter'],
    ['/api/v1/kilder/statnett/get_physical_flow?offset=-1', 400, 'invalid_parameter'],
    ['/api/v1/kilder/..%2F..%2Fetc', 404, 'source_not_found'],
    ['/api/v1/kilder/statnett/get_physical_flow?area=%E0%A4%A', 400, 'invalid_query_encoding'],
    ['/api/v1/kilder/statnett/get_physical_flow?__proto__=1', 400, 'unknown_parameter'],
    ['/api/v1/kilder/statnett/get_physical_flow?constructor=1', 400, 'unknown_parameter'],
    ['/api/v1/kilder/statnett/get_physical_flow?area=NO1&area=NO2', 400, 'repeated_parameter'],
    [`/api/v1/kilder/statnett/get_physical_flow?area=${'N'.repeat(16 * 1024)}`, 414, 'query_too_long'],
    ['/api/v1/kilder/statnett/nope', 404, 'operation_not_found'],
  ])('%s is a clear %i', async (path, status, code) => {
    const res = await raw(path)
    expect(res.status).toBe(status)
    const body = JSON.parse(res.body)
    expect(body.error).toMatchObject({ status, code })
    expect(body.error.message).not.toMatch(/\n\s+at /)
  })

  it('answers a POST to an operation with a 405 and Allow', async () => {
    const res = await raw('/api/v1/kilder/statnett/get_physical_flow', { method: 'POST' })
    expect(res.status).toBe(405)
    expect(res.headers.allow).toBe('GET, HEAD')
  })

  it('takes feedback after the host app parsed the body', async () => {
    const res = await fetch(`${base}/api/v1/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ source: 'statnett', message: 'Useful' }),
    })
    expect(res.status).toBe(202)
    expect(((await res.json()) as { status: string }).status).toBe('accepted')
  })

  it('leaves the host app its own routes', async () => {
    expect(JSON.parse((await raw('/health')).body)).toEqual({ status: 'ok' })
    expect((await raw('/elsewhere')).status).toBe(404)
  })

  it('serves discovery: index, descriptor, schema, OpenAPI and search', async () => {
    for (const path of ['/api/v1/', '/api/v1/kilder', '/api/v1/kilder/statnett?view=compact', '/api/v1/kilder/statnett/get_physical_flow/schema', '/api/v1/openapi.json', '/api/v1/sok/alle?q=str%C3%B8m']) {
      const res = await raw(path)
      expect(res.status, path).toBe(200)
    }
  })
})
