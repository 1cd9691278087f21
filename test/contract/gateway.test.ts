import Keyv from 'keyv'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createGateway, type Gateway, type GatewayRequest, type GatewayResponse } from '@allmenning/core'
import { statnett } from '@allmenning/sources'
import { startFakeStatnett, statnettJson, statnettPaths } from '@allmenning/sources/statnett/testing'
import type { FakeUpstream } from '@allmenning/core/testing'

let fake: FakeUpstream
let gateway: Gateway

const request = (path: string, query = '', extra: Partial<GatewayRequest> = {}): GatewayRequest => ({
  method: 'GET',
  path,
  query,
  headers: {},
  ...extra,
})
const call = async (g: Gateway, path: string, query = '', extra: Partial<GatewayRequest> = {}) => {
  const res = await g.handle(request(path, query, extra))
  return { ...res, json: res.body ? JSON.parse(res.body) : null }
}
const flow = '/api/v1/kilder/statnett/get_physical_flow'

beforeAll(async () => {
  fake = await startFakeStatnett()
  gateway = createGateway({
    sources: [statnett()],
    upstreams: { statnett: { baseUrl: fake.baseUrl } },
    onError: () => {},
  })
})
afterAll(() => fake.close())
afterEach(() => vi.restoreAllMocks())

describe('bad input is a clear 4xx naming the parameter and the rule', () => {
  it.each([
    ['limit=0', 'invalid_parameter', { parameter: 'limit', rule: 'min_value', problem: 'must be at least 1' }],
    ['limit=101', 'invalid_parameter', { parameter: 'limit', rule: 'max_value', problem: 'must be at most 100' }],
    ['limit=abc', 'invalid_parameter', { parameter: 'limit', rule: 'type', problem: 'must be an integer (got "abc")' }],
    ['limit=2.5', 'invalid_parameter', { parameter: 'limit', rule: 'type', problem: 'must be an integer (got "2.5")' }],
    ['offset=-1', 'invalid_parameter', { parameter: 'offset', rule: 'min_value', problem: 'must be at least 0' }],
    ['__proto__=x', 'unknown_parameter', { parameter: '__proto__', rule: 'unknown' }],
    ['constructor=x', 'unknown_parameter', { parameter: 'constructor', rule: 'unknown' }],
    [
      'limit=5&limit=6',
      'repeated_parameter',
      { parameter: 'limit', rule: 'repeated', problem: 'must be given at most once' },
    ],
    ['area=%E0%A4%A', 'invalid_query_encoding', { rule: 'encoding' }],
    ['area=%ZZ', 'invalid_query_encoding', { rule: 'encoding' }],
  ])('%s', async (query, code, detail) => {
    const { status, json, headers } = await call(gateway, flow, query)
    expect(status).toBe(400)
    expect(json.error).toMatchObject({ status: 400, code })
    expect(json.error.details[0]).toMatchObject(detail)
    expect(headers['cache-control']).toBe('no-store')
    expect(fake.requests).toHaveLength(0)
  })

  it('lists every broken parameter at once', async () => {
    const { json } = await call(gateway, flow, 'limit=0&offset=-1')
    expect(json.error.details.map((d: { parameter: string }) => d.parameter)).toEqual(['limit', 'offset'])
  })

  it('names the accepted parameters when one is unknown', async () => {
    const { json } = await call(gateway, flow, 'aera=NO1')
    expect(json.error.message).toBe('Unknown query parameter "aera"; accepted: area, limit, offset')
  })

  it('answers a 16 KB query string with a 414', async () => {
    const { status, json } = await call(gateway, flow, `area=${'A'.repeat(16 * 1024)}`)
    expect(status).toBe(414)
    expect(json.error).toMatchObject({ code: 'query_too_long', details: [{ parameter: 'query', rule: 'max_length' }] })
  })

  it('does not let an encoded path climb out of the source id', async () => {
    const { status, json } = await call(gateway, '/api/v1/kilder/..%2F..%2Fetc/passwd')
    expect(status).toBe(404)
    expect(json.error.code).toBe('source_not_found')
    expect(json.error.message).toContain('"../../etc"')
  })

  it('answers malformed percent-encoding in the path with a 400', async () => {
    const { status, json } = await call(gateway, '/api/v1/kilder/%E0%A4%A')
    expect(status).toBe(400)
    expect(json.error.code).toBe('invalid_path_encoding')
  })

  it('answers a missing required parameter with rule "required"', async () => {
    const { status, json } = await call(gateway, '/api/v1/sok/alle')
    expect(status).toBe(400)
    expect(json.error.details).toEqual([{ parameter: 'q', problem: 'is required', rule: 'required' }])
  })
})

describe('routes', () => {
  it('answers unknown sources, operations and routes with 404s that say what exists', async () => {
    const source = await call(gateway, '/api/v1/kilder/nope')
    expect(source.status).toBe(404)
    expect(source.json.error).toMatchObject({
      code: 'source_not_found',
      message: 'No source "nope"; available sources: statnett',
    })
    const operation = await call(gateway, '/api/v1/kilder/statnett/nope')
    expect(operation.json.error).toMatchObject({ code: 'operation_not_found' })
    expect(operation.json.error.message).toContain('get_physical_flow, get_production_consumption, get_power_situation')
    expect((await call(gateway, '/api/v2/')).json.error.code).toBe('route_not_found')
    expect((await call(gateway, '/api/v1/kilder/statnett/get_physical_flow/extra')).json.error.code).toBe(
      'route_not_found',
    )
    const nowhere = await call(gateway, '/api/v1/steder/59.9/10.7/extra')
    expect(nowhere.status).toBe(404)
    expect(nowhere.json.error.code).toBe('route_not_found')
  })

  it('answers a method the route does not take with a 405 and Allow', async () => {
    const res = await call(gateway, flow, '', { method: 'DELETE' })
    expect(res.status).toBe(405)
    expect(res.headers.allow).toBe('GET, HEAD')
    expect(res.json.error.code).toBe('method_not_allowed')
    expect((await call(gateway, '/api/v1/feedback', '', { method: 'PUT' })).headers.allow).toBe('GET, HEAD, POST')
  })

  it('owns /api and everything under it, nothing else', () => {
    expect(gateway.owns('/api')).toBe(true)
    expect(gateway.owns('/api/v1/kilder')).toBe(true)
    expect(gateway.owns('/apix')).toBe(false)
    expect(gateway.owns('/health')).toBe(false)
  })

  it('serves the API index with links to every endpoint and the sources', async () => {
    const { status, json } = await call(gateway, '/api/v1/')
    expect(status).toBe(200)
    expect(json.api_version).toBe('1.0.0')
    expect(json.endpoints.openapi.url).toBe('/api/v1/openapi.json')
    expect(json.endpoints.operation.url_template).toBe('/api/v1/kilder/{source}/{operation}{?parameters*}')
    expect(json.sources).toEqual([
      expect.objectContaining({
        id: 'statnett',
        operations: ['get_physical_flow', 'get_production_consumption', 'get_power_situation', 'get_price_area'],
      }),
    ])
    expect((await call(gateway, '/api/v1')).status).toBe(200)
  })

  it('builds absolute links under publicBaseUrl and relative ones under the mount path', async () => {
    const absolute = createGateway({
      sources: [statnett()],
      upstreams: { statnett: { baseUrl: fake.baseUrl } },
      publicBaseUrl: 'https://data.example.no/',
    })
    expect((await call(absolute, '/api/v1/kilder/statnett')).json._links.self).toBe(
      'https://data.example.no/api/v1/kilder/statnett',
    )
    expect((await call(gateway, '/api/v1/kilder/statnett', '', { basePath: '/data' })).json._links.self).toBe(
      '/data/api/v1/kilder/statnett',
    )
  })
})

describe('source descriptors', () => {
  it('full view has every field of spec 2.5, generated from the definitions', async () => {
    const { json, headers } = await call(gateway, '/api/v1/kilder/statnett')
    expect(Object.keys(json)).toEqual([
      'id',
      'name',
      'description',
      'documentation',
      'operations',
      'operation_schema_url_template',
      'topic',
      'keywords',
      'related_sources',
      '_meta',
      '_links',
    ])
    expect(json.operation_schema_url_template).toBe('/api/v1/kilder/statnett/{operation}/schema')
    expect(json._meta.sources[0]).toMatchObject({ id: 'statnett', cache_ttl_seconds: 300 })
    expect(Object.keys(json._links)).toEqual(['self', 'names', 'compact', 'full', 'wiki', 'feedback', 'api'])
    const op = json.operations[0]
    expect(op).toEqual({
      name: 'get_physical_flow',
      operation_descriptor_url: '/api/v1/kilder/statnett/get_physical_flow/schema',
      description: expect.stringContaining(
        'Signature: get_physical_flow(area: NO1|NO2|NO3|NO4|NO5|SE1|SE2|SE3|SE4|DK1|DK2|FI|EE|LV|LT|DE|NL|PL|EN|GB|RU, optional; limit: integer, optional, default 25; offset: integer, optional, default 0)',
      ),
      signature:
        'get_physical_flow(area: NO1|NO2|NO3|NO4|NO5|SE1|SE2|SE3|SE4|DK1|DK2|FI|EE|LV|LT|DE|NL|PL|EN|GB|RU, optional; limit: integer, optional, default 25; offset: integer, optional, default 0)',
      canonical_field_aliases: { timestamp: ['[].time'] },
      required_parameters: [],
      optional_parameters: ['area', 'limit', 'offset'],
      output_fields: ['[].from_area', '[].to_area', '[].flow_mw', '[].time'],
      output_fields_truncated: false,
      get_url_template: '/api/v1/kilder/statnett/get_physical_flow{?area,limit,offset}',
    })
    expect(headers.etag).toMatch(/^W\/"/)
    expect(headers['cache-control']).toBe('public, max-age=300')
  })

  it('lists related sources that are served, with their names and links, and leaves out the rest', async () => {
    const base = statnett()
    const related = createGateway({
      upstreams: { statnett: { baseUrl: fake.baseUrl } },
      sources: [
        {
          ...base,
          relatedSources: [
            { id: 'grid-prices', reason: 'Prices per price area' },
            { id: 'absent', reason: 'Not served here' },
          ],
        },
        { ...base, id: 'grid-prices', name: 'Grid prices', documentation: 'https://example.no/prices' },
      ],
    })
    const { json } = await call(related, '/api/v1/kilder/statnett')
    expect(json.related_sources).toEqual([
      {
        id: 'grid-prices',
        name: 'Grid prices',
        reason: 'Prices per price area',
        api: '/api/v1/kilder/grid-prices',
        wiki: 'https://example.no/prices',
      },
    ])
  })

  it.each([
    ['/api/v1/'],
    ['/api/v1/kilder'],
    ['/api/v1/kilder/statnett'],
    ['/api/v1/kilder/statnett/get_physical_flow/schema'],
    ['/api/v1/openapi.json'],
  ])('%s keeps its ETag and answers If-None-Match with a 304', async (path) => {
    const first = await call(gateway, path)
    await new Promise((resolve) => setTimeout(resolve, 5))
    const second = await call(gateway, path)
    expect(second.headers.etag).toBe(first.headers.etag)
    const conditional = await gateway.handle(request(path, '', { headers: { 'if-none-match': first.headers.etag! } }))
    expect(conditional.status).toBe(304)
  })

  it('names view lists only operation names and links; compact adds signatures', async () => {
    const names = (await call(gateway, '/api/v1/kilder/statnett', 'view=names')).json
    expect(names.operations[0]).toEqual({
      name: 'get_physical_flow',
      operation_descriptor_url: '/api/v1/kilder/statnett/get_physical_flow/schema',
    })
    expect(names.description).toBeUndefined()
    const compact = (await call(gateway, '/api/v1/kilder/statnett', 'view=compact')).json
    expect(compact.operations[2].signature).toBe(
      'get_power_situation(area: NO1|NO2|NO3|NO4|NO5, optional; limit: integer, optional, default 25; offset: integer, optional, default 0)',
    )
    expect(compact.operations[0].output_fields).toBeUndefined()
    expect((await call(gateway, '/api/v1/kilder/statnett', 'view=everything')).json.error.details[0]).toMatchObject({
      parameter: 'view',
      rule: 'enum',
      problem: 'must be one of: names, compact, full',
    })
  })

  it('the /schema resource gives parameters with types, defaults and bounds, and the output fields', async () => {
    const { json } = await call(gateway, '/api/v1/kilder/statnett/get_physical_flow/schema')
    expect(json.parameters[1]).toEqual({
      name: 'limit',
      in: 'query',
      type: 'integer',
      required: false,
      default: 25,
      description: 'Maximum number of list items returned.',
      schema: {
        type: 'integer',
        minimum: 1,
        maximum: 100,
        description: 'Maximum number of list items returned.',
        default: 25,
      },
    })
    expect(json.parameters[0]).toMatchObject({
      name: 'area',
      type: 'string',
      schema: { type: 'string', enum: expect.arrayContaining(['NO1', 'SE3', 'FI', 'DK2']) },
    })
    expect(json.output_fields).toEqual(['[].from_area', '[].to_area', '[].flow_mw', '[].time'])
    expect(json.output_schema.type).toBe('array')
    const production = (await call(gateway, '/api/v1/kilder/statnett/get_production_consumption/schema')).json
    expect(production.output_fields).toContain('countries.*.production_mw')
  })
})

describe('discovery search', () => {
  it.each([['statnett'], ['strøm'], ['Kraftsituasjonen'], ['electricity grid'], ['STROM']])(
    'finds statnett for %s without calling upstream',
    async (q) => {
      const { status, json } = await call(gateway, '/api/v1/sok/alle', `q=${encodeURIComponent(q)}`)
      expect(status).toBe(200)
      expect(json).toMatchObject({
        query: q,
        outcome: 'results',
        mode: 'source_discovery',
        returned: 1,
        total_matched: 1,
        limit: { value: 5 },
      })
      expect(json.results[0]).toMatchObject({
        type: 'data_source',
        id: 'statnett',
        source: 'statnett',
        _links: { api: '/api/v1/kilder/statnett' },
      })
      expect(json.data_sources[0]).toMatchObject({ id: 'statnett', topic: 'energy' })
      expect(Object.keys(json)).toEqual([
        'query',
        'outcome',
        'mode',
        'routing',
        'results',
        'data_sources',
        'returned',
        'total_matched',
        'limit',
        'coverage',
        'not_searched',
        'suggestion',
        '_meta',
        '_links',
      ])
      expect(Object.keys(json._links)).toEqual(['self', 'wiki', 'api_index'])
      expect(fake.requests).toHaveLength(0)
    },
  )

  it('says when nothing matched', async () => {
    const { json } = await call(gateway, '/api/v1/sok/alle', 'q=flyplass')
    expect(json).toMatchObject({ outcome: 'no_results', returned: 0, total_matched: 0, results: [] })
    expect(json.suggestion).toMatch(/Nothing matched "flyplass"/)
  })

  it('validates limit and sources', async () => {
    expect((await call(gateway, '/api/v1/sok/alle', 'q=x&limit=11')).json.error.details[0]).toMatchObject({
      parameter: 'limit',
      rule: 'max_value',
    })
    expect((await call(gateway, '/api/v1/sok/alle', 'q=x&sources=statnett,nope')).json.error.details[0]).toMatchObject({
      parameter: 'sources',
      rule: 'enum',
    })
  })
})

describe('feedback', () => {
  it('hands valid feedback to onFeedback and answers 202', async () => {
    const received: unknown[] = []
    const g = createGateway({
      sources: [statnett()],
      upstreams: { statnett: { baseUrl: fake.baseUrl } },
      onFeedback: (f) => void received.push(f),
    })
    const body = JSON.stringify({
      source: 'statnett',
      operation: 'get_physical_flow',
      message: 'The EN link shows no value',
    })
    const res = await call(g, '/api/v1/feedback', '', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      readBody: async () => Buffer.from(body),
    })
    expect(res.status).toBe(202)
    expect(received).toEqual([
      expect.objectContaining({
        source: 'statnett',
        message: 'The EN link shows no value',
        received_at: expect.any(String),
      }),
    ])
    const parsed = await call(g, '/api/v1/feedback', '', {
      method: 'POST',
      readBody: async () => ({ message: 'already parsed' }),
    })
    expect(parsed.status).toBe(202)
    expect(received).toHaveLength(2)
  })

  it.each([
    ['no message', { source: 'statnett' }, 'message'],
    ['an unknown source', { source: 'nope', message: 'x' }, 'source'],
    ['an operation without source', { operation: 'get_physical_flow', message: 'x' }, 'operation'],
    ['an unknown field', { message: 'x', extra: 1 }, 'extra'],
  ])('rejects %s naming the field', async (_name, body, parameter) => {
    const res = await call(gateway, '/api/v1/feedback', '', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      readBody: async () => JSON.stringify(body),
    })
    expect(res.status).toBe(400)
    expect(res.json.error.code).toBe('invalid_body')
    expect(res.json.error.details[0].parameter).toBe(parameter)
  })

  it('rejects malformed JSON and non-JSON bodies', async () => {
    const broken = await call(gateway, '/api/v1/feedback', '', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      readBody: async () => '{"message":',
    })
    expect(broken.json.error).toMatchObject({ code: 'invalid_body', details: [{ parameter: 'body', rule: 'json' }] })
    const text = await call(gateway, '/api/v1/feedback', '', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      readBody: async () => 'hello',
    })
    expect(text.status).toBe(415)
  })

  it('describes itself on GET', async () => {
    const { json } = await call(gateway, '/api/v1/feedback')
    expect(json).toMatchObject({
      method: 'POST',
      content_type: 'application/json',
      body_schema: { required: ['message'] },
    })
  })
})

describe('caching', () => {
  const fresh = (extra: Parameters<typeof createGateway>[0] extends infer O ? Partial<O> : never = {}) =>
    createGateway({
      sources: [statnett()],
      upstreams: { statnett: { baseUrl: fake.baseUrl, timeoutMs: 300 } },
      onError: () => {},
      ...extra,
    })
  const upstreamCalls = () => fake.requests.filter((r) => r.includes('GetFlow')).length

  it('serves the second identical request from the cache with the same ETag', async () => {
    const g = fresh()
    const before = upstreamCalls()
    const first = await call(g, flow, 'area=NO1')
    const second = await call(g, flow, 'area=no1')
    expect(upstreamCalls() - before).toBe(1)
    expect(first.headers['cache-status']).toBe('allmenning; fwd=miss; stored')
    expect(second.headers['cache-status']).toMatch(/^allmenning; hit; ttl=\d+$/)
    expect(second.headers.etag).toBe(first.headers.etag)
    expect(second.body).toBe(first.body)
    expect(second.headers['cache-control']).toBe('public, max-age=300')
    expect(second.headers.age).toBe('0')
  })

  it('gives a cache hit, a refusal and bad input at once through answer(), a miss as a promise', async () => {
    const g = fresh({ rateLimit: { quota: { requests: 2, windowSeconds: 60 } } })
    const asked = { clientAddress: '192.0.2.7' }
    const miss = g.answer(request(flow, 'area=NO3', asked))
    expect(miss).toBeInstanceOf(Promise)
    const made = await miss
    const hit = g.answer(request(flow, 'area=NO3', asked))
    expect(hit).not.toBeInstanceOf(Promise)
    expect(hit).toMatchObject({ status: 200, body: made.body })
    expect((hit as GatewayResponse).headers).toMatchObject({
      etag: made.headers.etag,
      'cache-status': expect.stringMatching(/^allmenning; hit; /),
      ratelimit: '"default";r=0;t=60',
    })
    const refused = g.answer(request(flow, 'area=NO3', asked))
    expect(refused).toMatchObject({ status: 429, headers: { 'retry-after': '60' } })
    const bad = g.answer(request(flow, 'limit=0'))
    expect(bad).toMatchObject({ status: 400 })
    // handle() is the same answer as a promise.
    const handled = g.handle(request(flow, 'area=NO3'))
    expect(handled).toBeInstanceOf(Promise)
    expect(await handled).toMatchObject({ status: 200, body: made.body })
  })

  it('answers If-None-Match with a 304 that keeps ETag and Cache-Control', async () => {
    const g = fresh()
    const first = await call(g, flow)
    const again = await g.handle(request(flow, '', { headers: { 'if-none-match': `"nope", ${first.headers.etag}` } }))
    expect(again.status).toBe(304)
    expect(again.body).toBeNull()
    expect(again.headers.etag).toBe(first.headers.etag)
    expect(again.headers['cache-control']).toBe('public, max-age=300')
    expect(again.headers['content-length']).toBeUndefined()
    expect((await g.handle(request(flow, '', { headers: { 'if-none-match': 'W/"other"' } }))).status).toBe(200)
  })

  it('answers HEAD like GET without the body', async () => {
    const g = fresh()
    const get = await call(g, flow)
    const head = await g.handle(request(flow, '', { method: 'HEAD' }))
    expect(head.status).toBe(200)
    expect(head.body).toBeNull()
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.body!)))
    expect(head.headers.etag).toBe(get.headers.etag)
  })

  it('lets identical concurrent misses share one upstream call', async () => {
    fake.route(statnettPaths.flow, async () => ({
      ...statnettJson('[{"OutAreaElspotId":"NO1","InAreaElspotId":"SE3","Value":1,"MeasureDate":0}]'),
      delayMs: 100,
    }))
    const g = fresh()
    const before = upstreamCalls()
    const answers = await Promise.all(Array.from({ length: 10 }, () => g.handle(request(flow))))
    expect(upstreamCalls() - before).toBe(1)
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200))
    expect(answers.filter((a) => a.headers['cache-status']?.endsWith('collapsed'))).toHaveLength(9)
    fake.route(statnettPaths.flow, () =>
      statnettJson('[{"OutAreaElspotId":"NO1","InAreaElspotId":"SE3","Value":1,"MeasureDate":0}]'),
    )
  })

  it('serves a stale copy that says so when the upstream fails, and refreshes when it is back', async () => {
    const g = fresh()
    const first = await call(g, flow, 'area=SE3')
    expect(first.json._meta.stale).toBe(false)
    const now = Date.now()
    vi.spyOn(Date, 'now').mockReturnValue(now + 301_000)
    fake.route(statnettPaths.flow, () => ({ status: 500, body: 'Internal Server Error' }))
    const stale = await call(g, flow, 'area=SE3')
    expect(stale.status).toBe(200)
    expect(stale.json.data).toEqual(first.json.data)
    expect(stale.json._meta).toMatchObject({
      stale: true,
      stale_reason: 'Upstream Statnett driftsdata (statnett) answered HTTP 500',
    })
    expect(stale.headers['cache-status']).toMatch(
      /^allmenning; fwd=stale; fwd-status=502; ttl=-\d+; detail=upstream-failed$/,
    )
    expect(stale.headers['cache-control']).toBe('no-cache')
    expect(stale.headers.etag).not.toBe(first.headers.etag)
    fake.route(statnettPaths.flow, () =>
      statnettJson('[{"OutAreaElspotId":"NO1","InAreaElspotId":"SE3","Value":2,"MeasureDate":0}]'),
    )
    const refreshed = await call(g, flow, 'area=SE3')
    expect(refreshed.headers['cache-status']).toBe('allmenning; fwd=stale; stored')
    expect(refreshed.json.data[0].flow_mw).toBe(2)
  })

  it('without a stale copy, an upstream failure is a 502', async () => {
    fake.route(statnettPaths.flow, () => ({ status: 500, body: 'Internal Server Error' }))
    const res = await call(fresh(), flow, 'area=DK1')
    expect(res.status).toBe(502)
    fake.route(statnettPaths.flow, () =>
      statnettJson('[{"OutAreaElspotId":"NO1","InAreaElspotId":"SE3","Value":1,"MeasureDate":0}]'),
    )
  })

  it('keeps answering when the cache store throws', async () => {
    const errors: unknown[] = []
    const broken = new Keyv({
      store: {
        get: () => Promise.reject(new Error('store down')),
        set: () => Promise.reject(new Error('store down')),
        delete: () => Promise.reject(new Error('store down')),
        clear: () => Promise.reject(new Error('store down')),
      } as unknown as Map<string, unknown>,
    })
    const g = fresh({ cache: broken, onError: (error) => errors.push(error) })
    const res = await call(g, flow)
    expect(res.status).toBe(200)
    expect(res.json.data).toEqual([{ from_area: 'NO1', to_area: 'SE3', flow_mw: 1, time: '1970-01-01T00:00:00.000Z' }])
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(errors.length).toBeGreaterThan(0)
  })

  it('keeps answering, promptly, when the cache store hangs', async () => {
    const hanging = new Keyv({
      store: {
        get: () => new Promise(() => {}),
        set: () => new Promise(() => {}),
        delete: () => new Promise(() => {}),
        clear: () => new Promise(() => {}),
      } as unknown as Map<string, unknown>,
    })
    const g = fresh({ cache: hanging, cacheTimeoutMs: 50 })
    const started = performance.now()
    const res = await call(g, flow)
    expect(res.status).toBe(200)
    expect(performance.now() - started).toBeLessThan(2000)
  })
})

describe('requests planned once are told apart', () => {
  it('gives each query and mount its own answer, when they share lengths and last characters', async () => {
    // Same path, queries of one length ending alike, two mounts: the cheapest ways to look alike.
    const asked = [
      ['area=NO1&limit=5', '/a'],
      ['area=NO2&limit=5', '/a'],
      ['area=NO1&limit=5', '/b'],
      ['area=NO2&limit=5', '/b'],
    ] as const
    for (let round = 0; round < 3; round++) {
      for (const [query, basePath] of asked) {
        const { status, json } = await call(gateway, flow, query, { basePath })
        expect(status).toBe(200)
        expect(json._links.self).toBe(`${basePath}${flow}?${query}&offset=0`)
      }
    }
  })
})
