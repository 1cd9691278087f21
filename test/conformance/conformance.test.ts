// One HTTP conformance suite for every adapter: the same cases, sent as real HTTP requests,
// through Express, Koa and every Lambda front end (see targets.ts). Where a platform cannot
// give the gateway's answer, the case names the targets and the reason in `exceptions` and
// asserts what those targets do instead; every other target keeps the full assertion.
import { request, type IncomingHttpHeaders } from 'node:http'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeStatnett, statnettPaths } from '../../packages/sources/src/statnett/testing/fake-statnett.js'
import type { FakeUpstream } from '@allmenning/core/testing'
import { explorer, targets, type ConformanceTarget, type StartedTarget } from './targets.js'

// ---------------------------------------------------------------------------------------
// HTTP

interface Reply {
  status: number
  headers: IncomingHttpHeaders
  body: string
}

interface Send {
  method?: string
  headers?: Record<string, string | string[]>
  body?: string
}

/** node:http rather than fetch, so the path and query go out byte for byte as written. */
function send(url: string, init: Send = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(init.body)
  })
}

const jsonType = 'application/json; charset=utf-8'
const weakEtag = /^W\/"[^"]+"$/
const op = '/api/v1/kilder/statnett/get_physical_flow'
const postJson = (body: string): Send => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body })
/** A POST to an MCP endpoint as the transport has clients send it. */
const postRpc = (message: unknown, headers: Record<string, string> = {}): Send => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
  body: typeof message === 'string' ? message : JSON.stringify(message),
})
const rpc = (id: number, method: string, params?: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) })

// ---------------------------------------------------------------------------------------
// Documented platform exceptions

interface PlatformException {
  applies(target: ConformanceTarget): boolean
  /** Why this target cannot give the gateway's answer. */
  reason: string
}

const exceptions = {
  albDropsRepeatedKeys: {
    applies: (t) => t.flavour === 'alb',
    reason: 'single-value ALB keeps only the last value of a repeated query key, so the gateway never sees the repetition',
  },
  httpApiDecodesPath: {
    applies: (t) => t.flavour === 'v2',
    reason: 'HTTP APIs (v2) decode rawPath, so %2F inside a segment arrives as a real "/"',
  },
  restApiDecodesQuery: {
    applies: (t) => t.flavour === 'v1',
    reason: 'REST APIs (v1) deliver decoded query values; one that does not decode arrives as literal text, which the adapter cannot tell from %25-escaped text',
  },
  frontEndLimitsRequestLine: {
    applies: (t) => t.platform === 'lambda',
    reason: 'AWS front ends cap the request line (API Gateway 10 KB, ALB 16 KB) before the function runs; the local front end does the same with 431',
  },
  hostParsesJsonFirst: {
    applies: (t) => t.hostParsesJson,
    reason: "the host app's express.json() reads the body before the gateway, so its rules apply (its own HTML 400 for malformed JSON, its 100 KB limit)",
  },
  noHostApp: {
    applies: (t) => t.platform === 'lambda',
    reason: 'a Lambda has no host app to fall through to, so the gateway answers every path with its own JSON 404',
  },
} satisfies Record<string, PlatformException>

// ---------------------------------------------------------------------------------------
// Shared assertions

interface Ctx {
  target: ConformanceTarget
  /** What clients put before `/api`, e.g. `http://127.0.0.1:1234/data`. */
  base: string
  origin: string
  /** The public path prefix: `/data`, `/prod` or ''. */
  prefix: string
  get(path: string, init?: Send): Promise<Reply>
}

function parse(reply: Reply): any {
  expect(reply.headers['content-type']).toBe(jsonType)
  return JSON.parse(reply.body)
}

/** Content-Length, when sent, is the byte length of what was sent. */
function expectLengthMatches(reply: Reply): void {
  expect(reply.headers['content-length']).toBe(String(Buffer.byteLength(reply.body)))
}

/** The one error schema: status, code, a message without a stack, links under the public path. */
function expectError(ctx: Ctx, reply: Reply, status: number, code: string): any {
  expect(reply.status, reply.body.slice(0, 200)).toBe(status)
  const body = parse(reply)
  expectLengthMatches(reply)
  expect(reply.headers['cache-control']).toBe('no-store')
  expect(reply.headers.etag).toBeUndefined()
  expect(Object.keys(body)).toEqual(['error', '_meta', '_links'])
  expect(body.error).toMatchObject({ status, code })
  expect(body.error.message).toEqual(expect.any(String))
  expect(body.error.message).not.toMatch(/\n\s+at /)
  expect(body._links).toEqual({ api_index: `${ctx.prefix}/api/v1/`, openapi: `${ctx.prefix}/api/v1/openapi.json` })
  return body
}

// ---------------------------------------------------------------------------------------
// The cases

interface Case {
  name: string
  run(ctx: Ctx): Promise<void>
  /** A documented platform exception and what the excepted targets answer instead. */
  exception?: PlatformException & { run(ctx: Ctx): Promise<void> }
}

interface ErrorCase {
  name: string
  path: string
  init?: Send
  status: number
  code: string
  check?(body: any, reply: Reply, ctx: Ctx): void | Promise<void>
  exception?: Case['exception']
}

const longQuery = (chars: number) => `${op}?area=${'N'.repeat(chars)}`
/** Valid JSON, padded past the 16 KB body limit with whitespace. */
const oversizedFeedback = `{"message":"Padded"${' '.repeat(17 * 1024)}}`

const errorCases: ErrorCase[] = [
  {
    name: '400 for a limit out of bounds, naming the parameter',
    path: `${op}?limit=0`,
    status: 400,
    code: 'invalid_parameter',
    check: (body) => expect(body.error.details[0]).toMatchObject({ parameter: 'limit' }),
  },
  {
    name: '400 for an unknown parameter named __proto__',
    path: `${op}?__proto__=1`,
    status: 400,
    code: 'unknown_parameter',
    check: (body) => expect(body.error.details[0]).toMatchObject({ parameter: '__proto__' }),
  },
  {
    name: '400 for an unknown parameter named constructor',
    path: `${op}?constructor=1`,
    status: 400,
    code: 'unknown_parameter',
  },
  {
    name: '400 for a repeated parameter (area=NO1&area=NO2)',
    path: `${op}?area=NO1&area=NO2`,
    status: 400,
    code: 'repeated_parameter',
    check: (body) => expect(body.error.details[0]).toMatchObject({ parameter: 'area' }),
    exception: {
      ...exceptions.albDropsRepeatedKeys,
      async run(ctx) {
        const reply = await ctx.get(`${op}?area=NO1&area=NO2`)
        expect(reply.status).toBe(200)
        expect(parse(reply).parameters).toEqual({ area: 'NO2', limit: 25, offset: 0 })
      },
    },
  },
  {
    name: '400 for malformed percent-encoding in the query (area=%E0%A4%A)',
    path: `${op}?area=%E0%A4%A`,
    status: 400,
    code: 'invalid_query_encoding',
    exception: {
      ...exceptions.restApiDecodesQuery,
      async run(ctx) {
        // Still a 400 naming the parameter, only under the code for a bad value.
        const body = expectError(ctx, await ctx.get(`${op}?area=%E0%A4%A`), 400, 'invalid_parameter')
        expect(body.error.details[0]).toMatchObject({ parameter: 'area' })
      },
    },
  },
  { name: '400 for malformed percent-encoding in the path', path: '/api/v1/kilder/%E0%A4%A', status: 400, code: 'invalid_path_encoding' },
  { name: '404 for an unknown source', path: '/api/v1/kilder/nope', status: 404, code: 'source_not_found' },
  { name: '404 for an unknown operation', path: '/api/v1/kilder/statnett/nope', status: 404, code: 'operation_not_found' },
  { name: '404 for an unknown path under /api', path: '/api/v1/nope', status: 404, code: 'route_not_found' },
  {
    name: '404 for an encoded slash inside a source id (statnett%2Fget_physical_flow)',
    path: '/api/v1/kilder/statnett%2Fget_physical_flow',
    status: 404,
    code: 'source_not_found',
    exception: {
      ...exceptions.httpApiDecodesPath,
      async run(ctx) {
        const reply = await ctx.get('/api/v1/kilder/statnett%2Fget_physical_flow')
        expect(reply.status).toBe(200)
        expect(parse(reply).operation).toBe('get_physical_flow')
      },
    },
  },
  {
    name: '405 with Allow for DELETE on an operation',
    path: op,
    init: { method: 'DELETE' },
    status: 405,
    code: 'method_not_allowed',
    check: (_body, reply) => expect(reply.headers.allow).toBe('GET, HEAD'),
  },
  {
    name: '405 with Allow for POST on an operation',
    path: op,
    init: postJson('{}'),
    status: 405,
    code: 'method_not_allowed',
    check: (_body, reply) => expect(reply.headers.allow).toBe('GET, HEAD'),
  },
  {
    name: '405 with Allow for OPTIONS on an operation',
    path: op,
    init: { method: 'OPTIONS' },
    status: 405,
    code: 'method_not_allowed',
    check: (_body, reply) => expect(reply.headers.allow).toBe('GET, HEAD'),
  },
  {
    name: '405 with Allow for PUT on the feedback route',
    path: '/api/v1/feedback',
    init: { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"message":"x"}' },
    status: 405,
    code: 'method_not_allowed',
    check: (_body, reply) => expect(reply.headers.allow).toBe('GET, HEAD, POST'),
  },
  { name: '414 for an 8 KB query', path: longQuery(8 * 1024), status: 414, code: 'query_too_long' },
  {
    name: '414 for a 16 KB query',
    path: longQuery(16 * 1024),
    status: 414,
    code: 'query_too_long',
    exception: {
      ...exceptions.frontEndLimitsRequestLine,
      async run(ctx) {
        const reply = await ctx.get(longQuery(16 * 1024))
        expect(reply.status).toBe(431)
        expect(reply.body).toBe('')
      },
    },
  },
  {
    name: '502 naming the upstream when Statnett answers 500, and not cached',
    path: '/api/v1/kilder/statnett/get_power_situation?area=NO3',
    status: 502,
    code: 'upstream_error',
    async check(body, _reply, ctx) {
      expect(body.error.upstream).toBe('statnett')
      const again = await ctx.get('/api/v1/kilder/statnett/get_power_situation?area=NO3')
      expect(again.status).toBe(502)
    },
  },
  {
    name: '400 invalid_body for malformed JSON feedback',
    path: '/api/v1/feedback',
    init: postJson('{"message":'),
    status: 400,
    code: 'invalid_body',
    exception: {
      ...exceptions.hostParsesJsonFirst,
      async run(ctx) {
        const reply = await ctx.get('/api/v1/feedback', postJson('{"message":'))
        expect(reply.status).toBe(400)
        expect(reply.headers['content-type']).toMatch(/^text\/html/)
      },
    },
  },
  {
    name: '413 body_too_large for a feedback body over 16 KB',
    path: '/api/v1/feedback',
    init: postJson(oversizedFeedback),
    status: 413,
    code: 'body_too_large',
    // Held through every adapter: where a host parser (100 KB) made a value of the body first too.
    check: (body) => expect(body.error.details[0]).toMatchObject({ parameter: 'body', rule: 'max_size' }),
  },
  {
    name: '400 invalid_body for well-formed JSON feedback without a message',
    path: '/api/v1/feedback',
    init: postJson('{"source":"statnett"}'),
    status: 400,
    code: 'invalid_body',
    check: (body) => expect(body.error.details[0]).toMatchObject({ parameter: 'message' }),
  },
  {
    name: '415 for feedback sent as text/plain',
    path: '/api/v1/feedback',
    init: { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'Useful' },
    status: 415,
    code: 'unsupported_media_type',
  },
]

const cases: Case[] = [
  {
    name: 'the API explorer page and each file it loads, from the gateway itself, under a strict Content-Security-Policy',
    async run(ctx) {
      const page = await ctx.get('/api/v1/docs')
      expect(page.status).toBe(200)
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(page.headers['content-security-policy']).toBe(
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'",
      )
      expect(page.headers['x-content-type-options']).toBe('nosniff')
      expectLengthMatches(page)
      expect(page.body).toContain(`data-openapi="${ctx.prefix}/api/v1/openapi.json"`)
      // Every script and stylesheet is a file of the explorer's, under the public path; none is inline.
      expect(page.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>|<style|\son[a-z]+=/i)
      const loaded = [...page.body.matchAll(/(?:src|href)="([^"]*\?asset=[^"]+)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'))
      expect(loaded.map((url) => url.split('asset=')[1])).toEqual(['swagger-ui.css', 'explorer.css', 'swagger-ui-bundle.js', 'explorer.js'])
      for (const url of loaded) {
        expect(url.startsWith(`${ctx.prefix}/api/v1/docs?asset=`)).toBe(true)
        const file = await send(`${ctx.origin}${url}`)
        const asset = explorer.assets[url.split('asset=')[1]!]!
        expect(file.status).toBe(200)
        expect(file.headers['content-type']).toBe(asset.contentType)
        expectLengthMatches(file)
        expect(file.headers.etag).toMatch(weakEtag)
        expect(file.body === asset.body).toBe(true)
      }
      const unknown = await ctx.get('/api/v1/docs?asset=swagger-ui-bundle.js.map')
      expect(unknown.status).toBe(400)
    },
  },
  {
    name: 'an operation answers the envelope, with links under the public path',
    async run(ctx) {
      const reply = await ctx.get(`${op}?area=NO2&limit=2`)
      expect(reply.status).toBe(200)
      const body = parse(reply)
      expectLengthMatches(reply)
      expect(reply.headers.etag).toMatch(weakEtag)
      expect(reply.headers['cache-control']).toBe('public, max-age=300')
      expect(reply.headers['cache-status']).toBe('allmenning; fwd=miss; stored')
      expect(Object.keys(body)).toEqual(['source', 'operation', 'parameters', 'data', 'entities', '_meta', '_provenance', '_links'])
      expect(body.parameters).toEqual({ area: 'NO2', limit: 2, offset: 0 })
      expect(body.data).toHaveLength(2)
      expect(body._meta.pagination).toEqual({ limit: 2, offset: 0, returned: 2, has_more_results: true, total: 4 })
      expect(body._links.self).toBe(`${ctx.prefix}/api/v1/kilder/statnett/get_physical_flow?area=NO2&limit=2&offset=0`)
      expect(body._links.source).toBe(`${ctx.prefix}/api/v1/kilder/statnett`)
    },
  },
  {
    name: 'a repeat is a cache hit with the same bytes and ETag',
    async run(ctx) {
      const first = await ctx.get(`${op}?area=NO2&limit=3`)
      const second = await ctx.get(`${op}?area=NO2&limit=3`)
      expect(second.status).toBe(200)
      expect(second.headers['cache-status']).toMatch(/^allmenning; hit; ttl=(300|299)$/)
      expect(second.headers.etag).toBe(first.headers.etag)
      expect(second.body).toBe(first.body)
    },
  },
  {
    name: 'If-None-Match with the ETag is an empty 304 that keeps ETag and Cache-Control',
    async run(ctx) {
      const first = await ctx.get(`${op}?area=NO1`)
      const etag = String(first.headers.etag)
      const reply = await ctx.get(`${op}?area=NO1`, { headers: { 'if-none-match': etag } })
      expect(reply.status).toBe(304)
      expect(reply.body).toBe('')
      expect(reply.headers.etag).toBe(etag)
      expect(reply.headers['cache-control']).toBe('public, max-age=300')
      expect(reply.headers['content-type']).toBeUndefined()
      const listed = await ctx.get(`${op}?area=NO1`, { headers: { 'if-none-match': `W/"other", ${etag}` } })
      expect(listed.status).toBe(304)
      const twoLines = await ctx.get(`${op}?area=NO1`, { headers: { 'if-none-match': ['W/"other"', etag] } })
      expect(twoLines.status).toBe(304)
    },
  },
  {
    name: 'If-None-Match with another tag is a full 200',
    async run(ctx) {
      const reply = await ctx.get(`${op}?area=NO1`, { headers: { 'if-none-match': 'W/"not-it"' } })
      expect(reply.status).toBe(200)
      expect(parse(reply).parameters.area).toBe('NO1')
    },
  },
  {
    name: "HEAD answers the GET's status, Content-Length, ETag and Cache-Control without a body",
    async run(ctx) {
      const get = await ctx.get(`${op}?area=SE3`)
      const head = await ctx.get(`${op}?area=SE3`, { method: 'HEAD' })
      expect(head.status).toBe(200)
      expect(head.body).toBe('')
      expect(head.headers['content-type']).toBe(jsonType)
      expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.body)))
      expect(head.headers.etag).toBe(get.headers.etag)
      expect(head.headers['cache-control']).toBe('public, max-age=300')
    },
  },
  {
    name: 'HEAD of an error keeps its status and Content-Length without a body',
    async run(ctx) {
      const get = await ctx.get('/api/v1/kilder/nope')
      const head = await ctx.get('/api/v1/kilder/nope', { method: 'HEAD' })
      expect(head.status).toBe(404)
      expect(head.body).toBe('')
      expect(head.headers['content-type']).toBe(jsonType)
      expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.body)))
    },
  },
  {
    name: 'HEAD of a discovery resource matches its GET',
    async run(ctx) {
      const get = await ctx.get('/api/v1/openapi.json')
      const head = await ctx.get('/api/v1/openapi.json', { method: 'HEAD' })
      expect(head.status).toBe(200)
      expect(head.body).toBe('')
      expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.body)))
      expect(head.headers.etag).toBe(get.headers.etag)
    },
  },
  {
    name: 'percent-encoded query values are decoded (area=%6E%6F1 is NO1)',
    async run(ctx) {
      const reply = await ctx.get(`${op}?area=%6E%6F1&limit=1`)
      expect(reply.status).toBe(200)
      const body = parse(reply)
      expect(body.parameters).toEqual({ area: 'NO1', limit: 1, offset: 0 })
      expect(body._links.self).toBe(`${ctx.prefix}/api/v1/kilder/statnett/get_physical_flow?area=NO1&limit=1&offset=0`)
    },
  },
  {
    name: "'+' is a space and an escaped '&' stays inside its value",
    async run(ctx) {
      const reply = await ctx.get('/api/v1/sok/alle?q=str%C3%B8m+kraft%26nett')
      expect(reply.status).toBe(200)
      expect(parse(reply).query).toBe('strøm kraft&nett')
    },
  },
  {
    name: 'empty pairs are ignored (?&&limit=1&)',
    async run(ctx) {
      const reply = await ctx.get(`${op}?&&limit=1&`)
      expect(reply.status).toBe(200)
      expect(parse(reply).parameters).toEqual({ limit: 1, offset: 0 })
    },
  },
  {
    // v1 and v2 events do not keep the order of different keys; this is why that is harmless.
    name: 'the order of different query keys does not change the answer',
    async run(ctx) {
      const a = await ctx.get(`${op}?area=DK1&limit=1`)
      const b = await ctx.get(`${op}?limit=1&area=DK1`)
      expect(b.status).toBe(200)
      expect(b.headers.etag).toBe(a.headers.etag)
      expect(b.body).toBe(a.body)
    },
  },
  ...errorCases.map(
    (c): Case => ({
      name: c.name,
      async run(ctx) {
        const reply = await ctx.get(c.path, c.init)
        const body = expectError(ctx, reply, c.status, c.code)
        await c.check?.(body, reply, ctx)
      },
      ...(c.exception ? { exception: c.exception } : {}),
    }),
  ),
  {
    name: 'Cache-Control: the source TTL, shorter for search, no-store for errors and feedback',
    async run(ctx) {
      const expected: [string, Send, string][] = [
        [`${op}?area=FI`, {}, 'public, max-age=300'],
        ['/api/v1/', {}, 'public, max-age=300'],
        ['/api/v1/kilder/statnett', {}, 'public, max-age=300'],
        ['/api/v1/kilder/statnett/get_physical_flow/schema', {}, 'public, max-age=300'],
        ['/api/v1/openapi.json', {}, 'public, max-age=300'],
        ['/api/v1/sok/alle?q=kraft', {}, 'public, max-age=60'],
        ['/api/v1/kilder/nope', {}, 'no-store'],
        ['/api/v1/feedback', postJson('{"message":"Cache check"}'), 'no-store'],
      ]
      for (const [path, init, cacheControl] of expected) {
        expect((await ctx.get(path, init)).headers['cache-control'], path).toBe(cacheControl)
      }
    },
  },
  {
    name: 'discovery: the API index, with links under the public path, and a 304 for its ETag',
    async run(ctx) {
      for (const path of ['/api/v1/', '/api/v1']) {
        const reply = await ctx.get(path)
        expect(reply.status, path).toBe(200)
        const body = parse(reply)
        expect(body._links.self).toBe(`${ctx.prefix}/api/v1/`)
        expect(body.endpoints.operation.url_template).toBe(`${ctx.prefix}/api/v1/kilder/{source}/{operation}{?parameters*}`)
        expect(body.sources.map((s: { id: string }) => s.id)).toEqual(['statnett'])
      }
      const first = await ctx.get('/api/v1/')
      const again = await ctx.get('/api/v1/', { headers: { 'if-none-match': String(first.headers.etag) } })
      expect(again.status).toBe(304)
      expect(again.body).toBe('')
    },
  },
  {
    name: 'discovery: the source descriptor (?view=names)',
    async run(ctx) {
      const reply = await ctx.get('/api/v1/kilder/statnett?view=names')
      expect(reply.status).toBe(200)
      expectLengthMatches(reply)
      expect(reply.headers.etag).toMatch(weakEtag)
      const body = parse(reply)
      expect(body.id).toBe('statnett')
      expect(body.operations).toContainEqual({
        name: 'get_physical_flow',
        operation_descriptor_url: `${ctx.prefix}/api/v1/kilder/statnett/get_physical_flow/schema`,
      })
      expect((await ctx.get('/api/v1/kilder/statnett?view=everything')).status).toBe(400)
    },
  },
  {
    name: 'discovery: an operation schema',
    async run(ctx) {
      const reply = await ctx.get('/api/v1/kilder/statnett/get_physical_flow/schema')
      expect(reply.status).toBe(200)
      const body = parse(reply)
      expect(body).toMatchObject({ source: 'statnett', operation: 'get_physical_flow', method: 'GET' })
      expect(body.get_url_template).toBe(`${ctx.prefix}/api/v1/kilder/statnett/get_physical_flow{?area,limit,offset}`)
    },
  },
  {
    name: 'discovery: the OpenAPI document, served for the public path',
    async run(ctx) {
      const reply = await ctx.get('/api/v1/openapi.json')
      expect(reply.status).toBe(200)
      expectLengthMatches(reply)
      const body = parse(reply)
      expect(body.openapi).toBe('3.1.0')
      expect(body.paths).toHaveProperty(['/api/v1/kilder/statnett/get_physical_flow'])
      expect(body.servers).toEqual([{ url: ctx.prefix === '' ? '/' : ctx.prefix }])
    },
  },
  {
    name: 'discovery: search with a UTF-8 percent-encoded query (q=str%C3%B8m)',
    async run(ctx) {
      const reply = await ctx.get('/api/v1/sok/alle?q=str%C3%B8m')
      expect(reply.status).toBe(200)
      const body = parse(reply)
      expect(body.query).toBe('strøm')
      expect(body.results[0]).toMatchObject({ id: 'statnett', _links: { api: `${ctx.prefix}/api/v1/kilder/statnett` } })
    },
  },
  {
    name: 'feedback: a JSON POST is accepted with 202',
    async run(ctx) {
      const reply = await ctx.get('/api/v1/feedback', postJson(JSON.stringify({ source: 'statnett', operation: 'get_physical_flow', message: 'Nyttig – takk' })))
      expect(reply.status).toBe(202)
      expectLengthMatches(reply)
      const body = parse(reply)
      expect(body).toMatchObject({
        status: 'accepted',
        feedback: { source: 'statnett', operation: 'get_physical_flow', message: 'Nyttig – takk' },
        _links: { api_index: `${ctx.prefix}/api/v1/` },
      })
      expect(body.feedback.received_at).toMatch(/^\d{4}-\d\d-\d\dT/)
    },
  },
  {
    name: 'feedback: GET describes how to post',
    async run(ctx) {
      const reply = await ctx.get('/api/v1/feedback')
      expect(reply.status).toBe(200)
      expect(parse(reply)).toMatchObject({ method: 'POST', url: `${ctx.prefix}/api/v1/feedback` })
    },
  },
  {
    name: "a path the gateway does not own goes on to the host app's 404",
    async run(ctx) {
      const reply = await ctx.get('/elsewhere')
      expect(reply.status).toBe(404)
      // The framework's own 404 page, not the gateway's JSON.
      expect(reply.headers['content-type']).toMatch(ctx.target.platform === 'express' ? /^text\/html/ : /^text\/plain/)
      expect(reply.body).not.toContain('route_not_found')
    },
    exception: {
      ...exceptions.noHostApp,
      async run(ctx) {
        const body = expectError(ctx, await ctx.get('/elsewhere'), 404, 'route_not_found')
        expect(body.error.message).toContain('/elsewhere')
      },
    },
  },
  {
    name: "the host app's own /health route keeps working beside the gateway",
    async run(ctx) {
      const reply = await send(`${ctx.origin}/health`)
      expect(reply.status).toBe(200)
      expect(JSON.parse(reply.body)).toEqual({ status: 'ok' })
    },
    exception: {
      ...exceptions.noHostApp,
      async run(ctx) {
        expectError(ctx, await ctx.get('/health'), 404, 'route_not_found')
      },
    },
  },
  ...mcpCases(),
]

/** The MCP endpoints through this adapter: the official SDK's client, then the transport rules one by one. */
function mcpCases(): Case[] {
  /** An SDK client, initialized against an endpoint under the target's public prefix. */
  async function connect(ctx: Ctx, path: string): Promise<Client> {
    const client = new Client({ name: 'allmenning-conformance', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${ctx.base}${path}`)))
    return client
  }
  return [
    {
      name: 'MCP: the SDK client initializes, lists the tools and calls them at /statnett/mcp',
      async run(ctx) {
        const client = await connect(ctx, '/statnett/mcp')
        try {
          expect(client.getServerVersion()?.name).toBe('allmenning-statnett')
          const { tools } = await client.listTools()
          const flow = tools.find((t) => t.name === 'get_physical_flow')!
          expect(flow.description).toContain(`GET ${ctx.prefix}/api/v1/kilder/statnett/get_physical_flow{?area,limit,offset}`)
          expect(flow.inputSchema.properties).toMatchObject({ limit: { type: 'integer', maximum: 100 } })

          const ok = await client.callTool({ name: 'get_physical_flow', arguments: { area: 'SE3', limit: 1 } })
          expect(ok.isError).toBe(false)
          const envelope = ok.structuredContent as any
          expect(envelope).toMatchObject({ source: 'statnett', parameters: { area: 'SE3', limit: 1, offset: 0 } })
          expect(envelope._links.self).toBe(`${ctx.prefix}/api/v1/kilder/statnett/get_physical_flow?area=SE3&limit=1&offset=0`)
          expect(JSON.parse((ok.content as { text: string }[])[0]!.text)).toEqual(envelope)
          // The JSON API answers the same GET from the entry the tool call stored.
          const rest = await ctx.get(`${op}?area=SE3&limit=1`)
          expect(rest.headers['cache-status']).toMatch(/; hit;/)

          const bad = await client.callTool({ name: 'get_physical_flow', arguments: { limit: 0 } })
          expect(bad.isError).toBe(true)
          expect((bad.structuredContent as any).error).toMatchObject({ status: 400, code: 'invalid_parameter', details: [{ parameter: 'limit' }] })
          expect((bad.structuredContent as any)._links.api_index).toBe(`${ctx.prefix}/api/v1/`)

          const failed = await client.callTool({ name: 'get_power_situation', arguments: { area: 'NO1' } })
          expect(failed.isError).toBe(true)
          expect((failed.structuredContent as any).error).toMatchObject({ status: 502, code: 'upstream_error', upstream: 'statnett' })
        } finally {
          await client.close()
        }
      },
    },
    {
      name: 'MCP: the SDK client finds, describes and calls through the catalogue at /mcp',
      async run(ctx) {
        const client = await connect(ctx, '/mcp')
        try {
          expect(client.getInstructions()).toContain(`${ctx.prefix}/{source}/mcp`)
          const found = await client.callTool({ name: 'search_sources', arguments: { q: 'strøm' } })
          expect((found.structuredContent as any).results[0]).toMatchObject({ id: 'statnett', _links: { api: `${ctx.prefix}/api/v1/kilder/statnett` } })
          const described = await client.callTool({ name: 'describe_operation', arguments: { source: 'statnett', operation: 'get_physical_flow' } })
          expect((described.structuredContent as any).get_url_template).toBe(`${ctx.prefix}/api/v1/kilder/statnett/get_physical_flow{?area,limit,offset}`)
          const data = await client.callTool({ name: 'get_data', arguments: { source: 'statnett', operation: 'get_physical_flow', parameters: { area: 'FI' } } })
          expect(data.structuredContent).toMatchObject({ source: 'statnett', parameters: { area: 'FI' } })
        } finally {
          await client.close()
        }
      },
    },
    {
      name: 'MCP: GET is a 405 with Allow: POST (no event stream)',
      async run(ctx) {
        const body = expectError(ctx, await ctx.get('/statnett/mcp', { headers: { accept: 'text/event-stream' } }), 405, 'method_not_allowed')
        expect(body.error.message).toContain('use POST')
      },
    },
    {
      name: 'MCP: a notification is accepted with 202 and no body',
      async run(ctx) {
        const reply = await ctx.get('/mcp', postRpc({ jsonrpc: '2.0', method: 'notifications/initialized' }))
        expect(reply.status).toBe(202)
        expect(reply.body).toBe('')
        expect(reply.headers['content-type']).toBeUndefined()
      },
    },
    {
      name: 'MCP: a client that accepts only application/json is answered with JSON',
      async run(ctx) {
        const reply = await ctx.get('/statnett/mcp', postRpc(rpc(4, 'ping'), { accept: 'application/json' }))
        expect(reply.status).toBe(200)
        expectLengthMatches(reply)
        expect(reply.headers['cache-control']).toBe('no-store')
        expect(parse(reply)).toEqual({ jsonrpc: '2.0', id: 4, result: {} })
      },
    },
    {
      name: 'MCP: the current and the previous protocol version are negotiated; an unknown header version is a 400',
      async run(ctx) {
        const initialize = (protocolVersion: string) =>
          rpc(1, 'initialize', { protocolVersion, capabilities: {}, clientInfo: { name: 'allmenning-conformance', version: '1' } })
        for (const [asked, answered] of [
          [LATEST_PROTOCOL_VERSION, LATEST_PROTOCOL_VERSION],
          ['2025-06-18', '2025-06-18'],
          ['2099-01-01', LATEST_PROTOCOL_VERSION],
        ]) {
          const reply = await ctx.get('/statnett/mcp', postRpc(initialize(asked!)))
          expect(reply.status, asked).toBe(200)
          expect(parse(reply).result.protocolVersion, asked).toBe(answered)
        }
        // After initialize, the client names its version in a header: one the server speaks is answered.
        const previous = await ctx.get('/statnett/mcp', postRpc(rpc(2, 'tools/list'), { 'mcp-protocol-version': '2025-06-18' }))
        expect(previous.status).toBe(200)
        expect(parse(previous).result.tools.map((t: { name: string }) => t.name)).toContain('get_physical_flow')
        const unknown = await ctx.get('/statnett/mcp', postRpc(rpc(3, 'tools/list'), { 'mcp-protocol-version': '2099-01-01' }))
        expect(unknown.status).toBe(400)
        expect(parse(unknown)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } })
      },
    },
    {
      name: 'MCP: malformed JSON is a JSON-RPC parse error (400, -32700), not a 500',
      async run(ctx) {
        const reply = await ctx.get('/mcp', postRpc('{"jsonrpc":'))
        expect(reply.status).toBe(400)
        expect(parse(reply)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } })
      },
      exception: {
        ...exceptions.hostParsesJsonFirst,
        async run(ctx) {
          const reply = await ctx.get('/mcp', postRpc('{"jsonrpc":'))
          expect(reply.status).toBe(400)
          expect(reply.headers['content-type']).toMatch(/^text\/html/)
        },
      },
    },
    {
      name: "MCP: a page on a foreign origin, or on a name rebound to this server, is refused with a JSON-RPC 403; the gateway's own page is answered",
      async run(ctx) {
        const own = new URL(ctx.origin)
        const foreign: Record<string, string>[] = [{ origin: 'http://evil.example' }, { origin: `http://evil.example:${own.port}`, host: `evil.example:${own.port}` }]
        for (const headers of foreign) {
          const refused = await ctx.get('/statnett/mcp', postRpc(rpc(1, 'tools/list'), headers))
          expect(refused.status, headers.origin).toBe(403)
          expect(parse(refused)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining('Forbidden') } })
        }
        const answered = await ctx.get('/statnett/mcp', postRpc(rpc(2, 'tools/list'), { origin: own.origin }))
        expect(answered.status).toBe(200)
        expect(parse(answered).result.tools.length).toBeGreaterThan(0)
      },
    },
    {
      name: "MCP: /{name}/mcp for no source goes on to the host app's 404",
      async run(ctx) {
        const reply = await ctx.get('/nope/mcp', postRpc(rpc(1, 'ping')))
        expect(reply.status).toBe(404)
        expect(reply.body).not.toContain('source_not_found')
      },
      exception: {
        ...exceptions.noHostApp,
        async run(ctx) {
          expectError(ctx, await ctx.get('/nope/mcp', postRpc(rpc(1, 'ping'))), 404, 'source_not_found')
        },
      },
    },
  ]
}

// ---------------------------------------------------------------------------------------
// Every case through every target

let fake: FakeUpstream

beforeAll(async () => {
  fake = await startFakeStatnett()
  // Only get_power_situation fails, so the 502 case never shares a cache key with the others.
  fake.route(statnettPaths.powerSituation, () => ({ status: 500, headers: { 'content-type': 'text/plain' }, body: 'Internal Server Error' }))
})
afterAll(async () => {
  await fake.close()
})

async function startTarget(target: ConformanceTarget): Promise<{ started: StartedTarget; ctx: Ctx }> {
  const started = await target.start(fake.baseUrl)
  const ctx: Ctx = {
    target,
    base: started.base,
    origin: started.origin,
    prefix: started.base.slice(started.origin.length),
    get: (path, init) => send(`${started.base}${path}`, init),
  }
  return { started, ctx }
}

describe.each(targets)('$name', (target) => {
  let started: StartedTarget
  const ctx = {} as Ctx
  beforeAll(async () => {
    const made = await startTarget(target)
    started = made.started
    Object.assign(ctx, made.ctx)
  })
  afterAll(async () => {
    await started?.close()
  })

  it('serves under the expected public prefix', () => {
    expect(['', '/data', '/prod']).toContain(ctx.prefix)
  })

  for (const c of cases) {
    const exception = c.exception?.applies(target) ? c.exception : undefined
    if (exception) it(`${c.name} — documented exception: ${exception.reason}`, () => exception.run(ctx))
    else it(c.name, () => c.run(ctx))
  }
})

// ---------------------------------------------------------------------------------------
// The same answer everywhere

interface Probe {
  id: string
  path: string
  init?: Send | ((earlier: Map<string, Reply>) => Send)
  /** Targets that cannot give the common answer (see `exceptions`). */
  except?: PlatformException
}

const probes: Probe[] = [
  { id: 'operation (miss)', path: `${op}?area=NO2&limit=2` },
  { id: 'operation (hit)', path: `${op}?area=NO2&limit=2` },
  { id: 'operation 304', path: `${op}?area=NO2&limit=2`, init: (earlier) => ({ headers: { 'if-none-match': String(earlier.get('operation (miss)')!.headers.etag) } }) },
  { id: 'operation HEAD', path: `${op}?area=NO2&limit=2`, init: { method: 'HEAD' } },
  { id: 'encoded value', path: `${op}?area=%6E%6F1` },
  { id: 'keys reordered', path: `${op}?limit=1&area=NO2` },
  { id: 'limit out of bounds', path: `${op}?limit=101` },
  { id: '__proto__', path: `${op}?__proto__=1` },
  { id: 'repeated parameter', path: `${op}?area=NO1&area=NO2`, except: exceptions.albDropsRepeatedKeys },
  { id: 'malformed query encoding', path: `${op}?area=%E0%A4%A`, except: exceptions.restApiDecodesQuery },
  { id: 'malformed path encoding', path: '/api/v1/kilder/%E0%A4%A' },
  { id: 'encoded slash in a segment', path: '/api/v1/kilder/statnett%2Fget_physical_flow', except: exceptions.httpApiDecodesPath },
  { id: 'unknown source', path: '/api/v1/kilder/nope' },
  { id: 'unknown operation', path: '/api/v1/kilder/statnett/nope' },
  { id: 'unknown route', path: '/api/v1/nope' },
  { id: 'DELETE', path: op, init: { method: 'DELETE' } },
  { id: 'OPTIONS', path: op, init: { method: 'OPTIONS' } },
  { id: 'PUT to feedback', path: '/api/v1/feedback', init: { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' } },
  { id: 'plus and escaped ampersand', path: '/api/v1/sok/alle?q=str%C3%B8m+kraft%26nett' },
  { id: 'If-None-Match over two lines', path: `${op}?area=NO2&limit=2`, init: (earlier) => ({ headers: { 'if-none-match': ['W/"x"', String(earlier.get('operation (miss)')!.headers.etag)] } }) },
  { id: 'POST to an operation', path: op, init: postJson('{}') },
  { id: '8 KB query', path: longQuery(8 * 1024) },
  { id: '16 KB query', path: longQuery(16 * 1024), except: exceptions.frontEndLimitsRequestLine },
  { id: 'upstream 500', path: '/api/v1/kilder/statnett/get_power_situation?area=NO4' },
  { id: 'index', path: '/api/v1/' },
  { id: 'index 304', path: '/api/v1/', init: (earlier) => ({ headers: { 'if-none-match': String(earlier.get('index')!.headers.etag) } }) },
  { id: 'sources', path: '/api/v1/kilder' },
  { id: 'descriptor', path: '/api/v1/kilder/statnett?view=names' },
  { id: 'descriptor, trailing slash', path: '/api/v1/kilder/statnett/' },
  { id: 'schema', path: '/api/v1/kilder/statnett/get_physical_flow/schema' },
  { id: 'explorer page', path: '/api/v1/docs' },
  { id: 'explorer page 304', path: '/api/v1/docs', init: (earlier) => ({ headers: { 'if-none-match': String(earlier.get('explorer page')!.headers.etag) } }) },
  { id: 'explorer script', path: '/api/v1/docs?asset=swagger-ui-bundle.js' },
  { id: 'explorer stylesheet HEAD', path: '/api/v1/docs?asset=swagger-ui.css', init: { method: 'HEAD' } },
  { id: 'openapi', path: '/api/v1/openapi.json' },
  { id: 'openapi HEAD', path: '/api/v1/openapi.json', init: { method: 'HEAD' } },
  { id: 'search', path: '/api/v1/sok/alle?q=str%C3%B8m' },
  { id: 'feedback descriptor', path: '/api/v1/feedback' },
  { id: 'feedback', path: '/api/v1/feedback', init: postJson('{"source":"statnett","message":"Useful"}') },
  { id: 'feedback malformed', path: '/api/v1/feedback', init: postJson('{"message":'), except: exceptions.hostParsesJsonFirst },
  { id: 'feedback over 16 KB', path: '/api/v1/feedback', init: postJson(oversizedFeedback), except: exceptions.hostParsesJsonFirst },
  { id: 'feedback invalid', path: '/api/v1/feedback', init: postJson('{"message":""}') },
  { id: 'feedback text/plain', path: '/api/v1/feedback', init: { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' } },
  { id: 'mcp initialize', path: '/mcp', init: postRpc(rpc(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } })) },
  { id: 'mcp notification', path: '/mcp', init: postRpc({ jsonrpc: '2.0', method: 'notifications/initialized' }) },
  { id: 'mcp tools/list', path: '/statnett/mcp', init: postRpc(rpc(2, 'tools/list'), { 'mcp-protocol-version': '2025-06-18' }) },
  { id: 'mcp tools/call', path: '/statnett/mcp', init: postRpc(rpc(3, 'tools/call', { name: 'get_physical_flow', arguments: { area: 'NO2', limit: 2 } })) },
  { id: 'mcp bad argument', path: '/statnett/mcp', init: postRpc(rpc(4, 'tools/call', { name: 'get_physical_flow', arguments: { limit: 'x' } })) },
  { id: 'mcp upstream failure', path: '/statnett/mcp', init: postRpc(rpc(5, 'tools/call', { name: 'get_power_situation', arguments: { area: 'NO5' } })) },
  { id: 'mcp unknown tool', path: '/statnett/mcp', init: postRpc(rpc(6, 'tools/call', { name: 'nope' })) },
  { id: 'mcp batch (2025-03-26)', path: '/mcp', init: postRpc([rpc(7, 'ping'), rpc(8, 'tools/list')], { 'mcp-protocol-version': '2025-03-26' }) },
  { id: 'mcp batch (2025-06-18)', path: '/mcp', init: postRpc([rpc(9, 'ping')], { 'mcp-protocol-version': '2025-06-18' }) },
  { id: 'mcp unsupported version', path: '/mcp', init: postRpc(rpc(10, 'ping'), { 'mcp-protocol-version': '2099-01-01' }) },
  { id: 'mcp only an event stream', path: '/mcp', init: postRpc(rpc(11, 'ping'), { accept: 'text/event-stream' }) },
  { id: 'mcp text/plain', path: '/mcp', init: { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' } },
  { id: 'mcp GET', path: '/mcp', init: { headers: { accept: 'text/event-stream' } } },
  { id: 'mcp malformed', path: '/mcp', init: postRpc('{"jsonrpc":'), except: exceptions.hostParsesJsonFirst },
  { id: 'mcp over 16 KB', path: '/mcp', init: postRpc(`{"jsonrpc":"2.0","id":1,"method":"ping"${' '.repeat(17 * 1024)}}`), except: exceptions.hostParsesJsonFirst },
]

/** Body with the target's own prefix taken out of links and the per-request times removed. */
function normalizeBody(value: unknown, prefix: string): unknown {
  if (typeof value === 'string') {
    // An MCP text block holds the structured content as JSON text: normalized as that content.
    if (value.startsWith('{"') && value.endsWith('}')) return JSON.stringify(normalizeBody(JSON.parse(value), prefix))
    if (prefix === '') return value
    if (value === prefix) return '/'
    // Links, URL templates and prose that names a route ("then call /data/api/v1/…") or an MCP endpoint.
    return value.replaceAll(`${prefix}/api/`, '/api/').replaceAll(`${prefix}/{source}/mcp`, '/{source}/mcp').replaceAll(`${prefix}/mcp`, '/mcp')
  }
  if (Array.isArray(value)) return value.map((item) => normalizeBody(item, prefix))
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        // Times that differ from run to run: when an answer was made, and how long a search took.
        .filter(([key]) => !['retrieved_at', 'received_at', 'date', 'took_ms'].includes(key))
        .map(([key, item]) => [key, normalizeBody(item, prefix)]),
    )
  }
  return value
}

/** Status, the headers that matter, and the body, in a form that must not differ between targets. */
function normalize(reply: Reply, prefix: string) {
  const header = (name: string) => {
    const value = reply.headers[name]
    return Array.isArray(value) ? value.join(', ') : value
  }
  const length = header('content-length')
  const etag = header('etag')
  return {
    status: reply.status,
    headers: {
      'content-type': header('content-type'),
      'cache-control': header('cache-control'),
      allow: header('allow'),
      'cache-status': header('cache-status')?.replace(/ttl=\d+/, 'ttl=<n>'),
      'content-security-policy': header('content-security-policy'),
      // The tag hashes the body, whose links carry the prefix: its form is what must agree.
      etag: etag === undefined ? undefined : weakEtag.test(etag) ? 'W/"<hash>"' : etag,
      'content-length':
        length === undefined
          ? undefined
          : reply.body === ''
            ? 'sent without a body'
            : length === String(Buffer.byteLength(reply.body))
              ? 'the body length'
              : `${length}, but the body has ${Buffer.byteLength(reply.body)} bytes`,
    },
    body:
      reply.body === ''
        ? ''
        : reply.headers['content-type'] === jsonType
          ? normalizeBody(JSON.parse(reply.body), prefix)
          : // The explorer page links its files under the target's own prefix.
            normalizeBody(reply.body, prefix),
  }
}

describe('every target gives the same answer', () => {
  it('same status, same headers that matter and same body, for every probe and every adapter', async () => {
    const answers = new Map<string, Map<string, ReturnType<typeof normalize>>>()
    for (const target of targets) {
      const { started, ctx } = await startTarget(target)
      try {
        const replies = new Map<string, Reply>()
        const normalized = new Map<string, ReturnType<typeof normalize>>()
        for (const probe of probes) {
          const init = typeof probe.init === 'function' ? probe.init(replies) : probe.init
          const reply = await ctx.get(probe.path, init)
          replies.set(probe.id, reply)
          normalized.set(probe.id, normalize(reply, ctx.prefix))
        }
        answers.set(target.name, normalized)
      } finally {
        await started.close()
      }
    }

    for (const probe of probes) {
      const agreeing = targets.filter((t) => !probe.except?.applies(t))
      expect(agreeing.length, probe.id).toBeGreaterThan(1)
      const reference = answers.get(agreeing[0]!.name)!.get(probe.id)
      for (const target of agreeing.slice(1)) {
        expect(answers.get(target.name)!.get(probe.id), `${probe.id}: ${target.name} vs ${agreeing[0]!.name}`).toEqual(reference)
      }
    }
    // The probes cover a success, a hit, a 304, a HEAD and every error status.
    const statuses = new Set([...answers.values()].flatMap((m) => [...m.values()].map((a) => a.status)))
    for (const status of [200, 202, 304, 400, 404, 405, 414, 415, 502]) expect(statuses, String(status)).toContain(status)
  })
})
