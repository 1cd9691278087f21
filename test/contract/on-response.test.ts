// `createGateway({ onResponse })`: the host's one hook on every answer a client gets, routed or
// not. The conformance suite holds it through every adapter; these hold what it is given.
import Keyv from 'keyv'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, type GatewayRequest, type ResponseHook } from '@allmenning/core'
import { statnett } from '@allmenning/sources'
import type { FakeUpstream } from '@allmenning/core/testing'
import { startFakeStatnett } from '@allmenning/sources/statnett/testing'

let fake: FakeUpstream
beforeAll(async () => {
  fake = await startFakeStatnett()
})
afterAll(() => fake.close())

const flow = '/api/v1/kilder/statnett/get_physical_flow'
const get = (path: string, query = '', extra: Partial<GatewayRequest> = {}): GatewayRequest => ({
  method: 'GET',
  path,
  query,
  headers: {},
  ...extra,
})

function gatewayWith(onResponse: ResponseHook, errors: unknown[] = []) {
  return createGateway({
    sources: [statnett()],
    upstreams: { statnett: { baseUrl: fake.baseUrl } },
    cache: new Keyv(),
    onError: (error) => errors.push(error),
    onResponse,
  })
}

describe('onResponse', () => {
  it('is given a copy: what it changes on one answer never reaches the cached answer the next request gets', async () => {
    let n = 0
    const gateway = gatewayWith((response) => {
      n += 1
      response.headers['x-answer'] = String(n)
      response.body = `${response.body}\n`
    })
    const first = await gateway.handle(get(flow, 'area=NO1'))
    const second = await gateway.handle(get(flow, 'area=NO1'))
    expect([first.headers['x-answer'], second.headers['x-answer']]).toEqual(['1', '2'])
    // Each answer got one newline from its own hook call, not the first's as well.
    expect(second.body!.endsWith('}\n')).toBe(true)
    expect(second.body!.endsWith('}\n\n')).toBe(false)
  })

  it('runs before conditional requests and HEAD: its header reaches a 304 and a HEAD without a body', async () => {
    const gateway = gatewayWith((response) => {
      response.headers['access-control-allow-origin'] = '*'
    })
    const first = await gateway.handle(get(flow, 'area=NO2'))
    const notModified = await gateway.handle(
      get(flow, 'area=NO2', { headers: { 'if-none-match': first.headers.etag } }),
    )
    expect(notModified.status).toBe(304)
    expect(notModified.headers['access-control-allow-origin']).toBe('*')
    const head = await gateway.handle(get(flow, 'area=NO2', { method: 'HEAD' }))
    expect(head).toMatchObject({ status: 200, body: null })
    expect(head.headers['access-control-allow-origin']).toBe('*')
  })

  it('may answer otherwise: a refusal it returns is what the client gets', async () => {
    const gateway = gatewayWith((_response, request) => {
      if (request.headers.authorization !== 'Bearer ok') {
        return {
          status: 401,
          headers: { 'content-type': 'application/json; charset=utf-8', 'www-authenticate': 'Bearer' },
          body: '{"error":{"status":401}}',
        }
      }
    })
    const refused = await gateway.handle(get(flow, 'area=NO3'))
    expect(refused).toMatchObject({ status: 401, headers: { 'www-authenticate': 'Bearer' } })
    const allowed = await gateway.handle(get(flow, 'area=NO3', { headers: { authorization: 'Bearer ok' } }))
    expect(allowed.status).toBe(200)
  })

  it('that throws is reported and answered with the shared 500, its message not shown', async () => {
    const errors: unknown[] = []
    const gateway = gatewayWith(() => {
      throw new Error('the hook broke at /secret/path')
    }, errors)
    const answer = await gateway.handle(get(flow, 'area=NO4'))
    expect(answer.status).toBe(500)
    expect(JSON.parse(answer.body!).error.code).toBe('internal_error')
    expect(answer.body).not.toContain('secret')
    expect(errors).toHaveLength(1)
  })

  it('whose answer HTTP cannot carry is reported and answered with the shared 500, before any adapter writes it', async () => {
    const errors: unknown[] = []
    const lineBreak = gatewayWith((response) => {
      response.headers['x-trace'] = 'a\r\nset-cookie: b'
    }, errors)
    const answer = await lineBreak.handle(get(flow, 'area=NO4'))
    expect(answer.status).toBe(500)
    expect(JSON.parse(answer.body!).error.code).toBe('internal_error')
    expect(answer.headers['x-trace']).toBeUndefined()
    expect(errors).toEqual([expect.objectContaining({ message: expect.stringContaining('header x-trace') })])
    const outOfRange = gatewayWith((response) => ({ ...response, status: 1000 }), errors)
    expect((await outOfRange.handle(get(flow, 'area=NO4'))).status).toBe(500)
    expect(errors).toHaveLength(2)
  })

  it("sees the host's own errors and 404s that adapters answer through the gateway, with the request they were for", async () => {
    const seen: [number, string, string][] = []
    const gateway = gatewayWith((response, request) => {
      seen.push([response.status, request.method, request.path])
      response.headers['x-seen'] = '1'
    })
    const malformed = Object.assign(new SyntaxError('Unexpected end of JSON input'), {
      status: 400,
      type: 'entity.parse.failed',
    })
    const hostError = gateway.answerHostError(malformed, {
      method: 'POST',
      path: '/api/v1/feedback',
      basePath: '/data',
      headers: {},
    })
    const notFound = gateway.answerNotFound({ method: 'HEAD', path: '/elsewhere', basePath: '/data', headers: {} })
    expect(hostError).toMatchObject({ status: 400, headers: { 'x-seen': '1' } })
    expect(JSON.parse(hostError.body!).error.code).toBe('invalid_body')
    expect(notFound).toMatchObject({ status: 404, body: null, headers: { 'x-seen': '1' } })
    expect(seen).toEqual([
      [400, 'POST', '/api/v1/feedback'],
      [404, 'HEAD', '/elsewhere'],
    ])
  })
})
