import { conformanceNames } from './conformance-source.js'
import { postJson, type ConformanceReply, type ConformanceSend } from './conformance-http.js'
import type { AdapterConformanceCase, AdapterConformanceContext } from './adapter-conformance-context.js'

// A cached answer's max-age is what is left of the source's 300 s: a second or more may have
// passed since an earlier case cached it, on a busy machine more.
const countingDownFrom300 = /^public, max-age=(2[89]\d|300)$/

// The cases every adapter must pass, sent as real HTTP requests. They assume a fresh gateway
// over the suite's own source (see conformance-source.ts); cases that share a cache key are
// written so their order does not matter.

const jsonType = 'application/json; charset=utf-8'
const weakEtag = /^W\/"[^"]+"$/
const { source, operation, failingOperation, upstream } = conformanceNames
const sourcePath = `/api/v1/kilder/${source}`
const op = `${sourcePath}/${operation}`
const failing = `${sourcePath}/${failingOperation}`

const longQuery = (chars: number) => `${op}?area=${'N'.repeat(chars)}`
/** Valid JSON, padded past the 16 KB body limit with whitespace. */
const oversizedFeedback = `{"message":"Padded"${' '.repeat(17 * 1024)}}`

interface ErrorCase {
  name: string
  path: string
  init?: ConformanceSend
  status: number
  code: string
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  check?(body: any, reply: ConformanceReply, ctx: AdapterConformanceContext): void | Promise<void>
  exception?: AdapterConformanceCase['exception']
}

const errorCases: ErrorCase[] = [
  {
    name: '400 for a limit out of bounds, naming the parameter',
    path: `${op}?limit=0`,
    status: 400,
    code: 'invalid_parameter',
    check: (body, _reply, { expect }) => expect(body.error.details[0]).toMatchObject({ parameter: 'limit' }),
  },
  {
    name: '400 for an unknown parameter named __proto__',
    path: `${op}?__proto__=1`,
    status: 400,
    code: 'unknown_parameter',
    check: (body, _reply, { expect }) => expect(body.error.details[0]).toMatchObject({ parameter: '__proto__' }),
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
    check: (body, _reply, { expect }) => expect(body.error.details[0]).toMatchObject({ parameter: 'area' }),
    exception: {
      quirk: 'dropsRepeatedQueryKeys',
      async run(ctx) {
        const reply = await ctx.get(`${op}?area=NO1&area=NO2`)
        ctx.expect(reply.status).toBe(200)
        ctx.expect(ctx.json(reply).parameters).toEqual({ area: 'NO2', limit: 25, offset: 0 })
      },
    },
  },
  {
    name: '400 for malformed percent-encoding in the query (area=%E0%A4%A)',
    path: `${op}?area=%E0%A4%A`,
    status: 400,
    code: 'invalid_query_encoding',
    exception: {
      quirk: 'decodesQueryValues',
      async run(ctx) {
        // Still a 400 naming the parameter, only under the code for a bad value.
        const body = ctx.expectError(await ctx.get(`${op}?area=%E0%A4%A`), 400, 'invalid_parameter')
        ctx.expect(body.error.details[0]).toMatchObject({ parameter: 'area' })
      },
    },
  },
  {
    name: '400 for malformed percent-encoding in the path',
    path: '/api/v1/kilder/%E0%A4%A',
    status: 400,
    code: 'invalid_path_encoding',
  },
  { name: '404 for an unknown source', path: '/api/v1/kilder/nope', status: 404, code: 'source_not_found' },
  { name: '404 for an unknown operation', path: `${sourcePath}/nope`, status: 404, code: 'operation_not_found' },
  { name: '404 for an unknown path under /api', path: '/api/v1/nope', status: 404, code: 'route_not_found' },
  {
    name: `404 for an encoded slash inside a source id (${source}%2F${operation})`,
    path: `/api/v1/kilder/${source}%2F${operation}`,
    status: 404,
    code: 'source_not_found',
    exception: {
      quirk: 'decodesEncodedSlash',
      async run(ctx) {
        const reply = await ctx.get(`/api/v1/kilder/${source}%2F${operation}`)
        ctx.expect(reply.status).toBe(200)
        ctx.expect(ctx.json(reply).operation).toBe(operation)
      },
    },
  },
  {
    name: '405 with Allow for DELETE on an operation',
    path: op,
    init: { method: 'DELETE' },
    status: 405,
    code: 'method_not_allowed',
    check: (_body, reply, { expect }) => expect(reply.headers.allow).toBe('GET, HEAD'),
  },
  {
    name: '405 with Allow for POST on an operation',
    path: op,
    init: postJson('{}'),
    status: 405,
    code: 'method_not_allowed',
    check: (_body, reply, { expect }) => expect(reply.headers.allow).toBe('GET, HEAD'),
  },
  {
    name: '405 with Allow for OPTIONS on an operation',
    path: op,
    init: { method: 'OPTIONS' },
    status: 405,
    code: 'method_not_allowed',
    check: (_body, reply, { expect }) => expect(reply.headers.allow).toBe('GET, HEAD'),
  },
  {
    name: '405 with Allow for PUT on the feedback route',
    path: '/api/v1/feedback',
    init: { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"message":"x"}' },
    status: 405,
    code: 'method_not_allowed',
    check: (_body, reply, { expect }) => expect(reply.headers.allow).toBe('GET, HEAD, POST'),
  },
  { name: '414 for an 8 KB query', path: longQuery(8 * 1024), status: 414, code: 'query_too_long' },
  {
    name: '414 for a 16 KB query',
    path: longQuery(16 * 1024),
    status: 414,
    code: 'query_too_long',
    exception: {
      quirk: 'capsRequestLine',
      async run(ctx) {
        const reply = await ctx.get(longQuery(16 * 1024))
        ctx.expect(reply.status).toBe(431)
        ctx.expect(reply.body).toBe('')
      },
    },
  },
  {
    name: `502 naming the upstream when ${upstream} answers 500, and not cached`,
    path: `${failing}?area=NO3`,
    status: 502,
    code: 'upstream_error',
    async check(body, _reply, ctx) {
      ctx.expect(body.error.upstream).toBe(upstream)
      const again = await ctx.get(`${failing}?area=NO3`)
      ctx.expect(again.status).toBe(502)
    },
  },
  {
    name: '400 invalid_body for malformed JSON feedback',
    path: '/api/v1/feedback',
    init: postJson('{"message":'),
    status: 400,
    code: 'invalid_body',
    exception: {
      quirk: 'hostParsesJson',
      async run(ctx) {
        const reply = await ctx.get('/api/v1/feedback', postJson('{"message":'))
        ctx.expect(reply.status).toBe(400)
        ctx.expect(reply.headers['content-type']).toMatch(/^text\/html/)
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
    check: (body, _reply, { expect }) =>
      expect(body.error.details[0]).toMatchObject({ parameter: 'body', rule: 'max_size' }),
  },
  {
    name: '400 invalid_body for well-formed JSON feedback without a message',
    path: '/api/v1/feedback',
    init: postJson(`{"source":"${source}"}`),
    status: 400,
    code: 'invalid_body',
    check: (body, _reply, { expect }) => expect(body.error.details[0]).toMatchObject({ parameter: 'message' }),
  },
  {
    name: '415 for feedback sent as text/plain',
    path: '/api/v1/feedback',
    init: { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'Useful' },
    status: 415,
    code: 'unsupported_media_type',
  },
]

/** Every case of the suite, in the order they run. */
export const adapterConformanceCases: AdapterConformanceCase[] = [
  {
    name: 'the API explorer page and each file it loads, from the gateway itself, under a strict Content-Security-Policy',
    async run(ctx) {
      const { expect } = ctx
      const page = await ctx.get('/api/v1/docs')
      expect(page.status).toBe(200)
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(page.headers['content-security-policy']).toBe(
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'",
      )
      expect(page.headers['x-content-type-options']).toBe('nosniff')
      ctx.expectLengthMatches(page)
      expect(page.body).toContain(`data-openapi="${ctx.prefix}/api/v1/openapi.json"`)
      // Every script and stylesheet is a file of the explorer's, under the public path; none is inline.
      expect(page.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>|<style|\son[a-z]+=/i)
      const loaded = [...page.body.matchAll(/(?:src|href)="([^"]*\?asset=[^"]+)"/g)].map((m) =>
        m[1]!.replaceAll('&amp;', '&'),
      )
      const names = Object.keys(ctx.explorer.assets)
      expect(loaded.map((url) => url.split('asset=')[1]).sort()).toEqual([...names].sort())
      for (const url of loaded) {
        expect(url.startsWith(`${ctx.prefix}/api/v1/docs?asset=`)).toBe(true)
        const file = await ctx.send(`${ctx.origin}${url}`)
        const asset = ctx.explorer.assets[url.split('asset=')[1]!]!
        expect(file.status).toBe(200)
        expect(file.headers['content-type']).toBe(asset.contentType)
        ctx.expectLengthMatches(file)
        expect(file.headers.etag).toMatch(weakEtag)
        expect(file.body === asset.body).toBe(true)
      }
      const unknown = await ctx.get(`/api/v1/docs?asset=${names[0]}.map`)
      expect(unknown.status).toBe(400)
    },
  },
  {
    name: 'an operation answers the envelope, with links under the public path',
    async run(ctx) {
      const { expect } = ctx
      const reply = await ctx.get(`${op}?area=NO2&limit=2`)
      expect(reply.status).toBe(200)
      const body = ctx.json(reply)
      ctx.expectLengthMatches(reply)
      expect(reply.headers.etag).toMatch(weakEtag)
      expect(reply.headers['cache-control']).toBe('public, max-age=300')
      expect(reply.headers['cache-status']).toBe('allmenning; fwd=miss; stored')
      expect(Object.keys(body)).toEqual([
        'source',
        'operation',
        'parameters',
        'data',
        'entities',
        '_meta',
        '_provenance',
        '_links',
      ])
      expect(body.parameters).toEqual({ area: 'NO2', limit: 2, offset: 0 })
      expect(body.data).toHaveLength(2)
      expect(body._meta.pagination).toEqual({
        limit: 2,
        offset: 0,
        returned: 2,
        has_more_results: true,
        next_offset: 2,
        total: 4,
      })
      expect(body._links.self).toBe(`${ctx.prefix}${op}?area=NO2&limit=2&offset=0`)
      expect(body._links.source).toBe(`${ctx.prefix}${sourcePath}`)
    },
  },
  {
    name: 'a repeat is a cache hit with the same bytes and ETag',
    async run(ctx) {
      const first = await ctx.get(`${op}?area=NO2&limit=3`)
      const second = await ctx.get(`${op}?area=NO2&limit=3`)
      ctx.expect(second.status).toBe(200)
      ctx.expect(second.headers['cache-status']).toMatch(/^allmenning; hit; ttl=(300|299)$/)
      ctx.expect(second.headers.etag).toBe(first.headers.etag)
      ctx.expect(second.body).toBe(first.body)
    },
  },
  {
    name: 'answers as the gateway does in process: status, every header it sets, and the body byte for byte',
    async run(ctx) {
      const requests: [string, string][] = [
        ['/api/v1/', ''],
        [sourcePath, 'view=names'],
        [`${op}/schema`, ''],
        ['/api/v1/openapi.json', ''],
        ['/api/v1/kilder/nope', ''],
        [op, 'limit=0'],
      ]
      // An error says when it was made; that alone may differ between the two answers.
      const untimed = (body: string) => body.replace(/"retrieved_at":"[^"]*"/g, '"retrieved_at":""')
      for (const [path, query] of requests) {
        const reply = await ctx.get(query ? `${path}?${query}` : path)
        const own = await ctx.gateway.handle({ method: 'GET', path, query, headers: {}, basePath: ctx.prefix })
        ctx.expect(reply.status, path).toBe(own.status)
        for (const [name, value] of Object.entries(own.headers))
          ctx.expect(reply.headers[name], `${path}: ${name}`).toBe(value)
        ctx
          .expect(untimed(reply.body) === untimed(own.body ?? ''), `${path}: the body as the gateway made it`)
          .toBe(true)
      }
    },
  },
  {
    name: 'If-None-Match with the ETag is an empty 304 that keeps ETag and Cache-Control',
    async run(ctx) {
      const { expect } = ctx
      const first = await ctx.get(`${op}?area=NO1`)
      const etag = String(first.headers.etag)
      const reply = await ctx.get(`${op}?area=NO1`, { headers: { 'if-none-match': etag } })
      expect(reply.status).toBe(304)
      expect(reply.body).toBe('')
      expect(reply.headers.etag).toBe(etag)
      expect(reply.headers['cache-control']).toMatch(countingDownFrom300)
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
      ctx.expect(reply.status).toBe(200)
      ctx.expect(ctx.json(reply).parameters.area).toBe('NO1')
    },
  },
  {
    name: "HEAD answers the GET's status, Content-Length, ETag and Cache-Control without a body",
    async run(ctx) {
      const { expect } = ctx
      const get = await ctx.get(`${op}?area=SE3`)
      const head = await ctx.get(`${op}?area=SE3`, { method: 'HEAD' })
      expect(head.status).toBe(200)
      expect(head.body).toBe('')
      expect(head.headers['content-type']).toBe(jsonType)
      expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.body)))
      expect(head.headers.etag).toBe(get.headers.etag)
      expect(head.headers['cache-control']).toMatch(countingDownFrom300)
    },
  },
  {
    name: 'HEAD of an error keeps its status and Content-Length without a body',
    async run(ctx) {
      const { expect } = ctx
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
      const { expect } = ctx
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
      ctx.expect(reply.status).toBe(200)
      const body = ctx.json(reply)
      ctx.expect(body.parameters).toEqual({ area: 'NO1', limit: 1, offset: 0 })
      ctx.expect(body._links.self).toBe(`${ctx.prefix}${op}?area=NO1&limit=1&offset=0`)
    },
  },
  {
    name: "'+' is a space and an escaped '&' stays inside its value",
    async run(ctx) {
      const reply = await ctx.get('/api/v1/sok/alle?q=str%C3%B8m+kraft%26nett')
      ctx.expect(reply.status).toBe(200)
      ctx.expect(ctx.json(reply).query).toBe('strøm kraft&nett')
    },
  },
  {
    name: 'empty pairs are ignored (?&&limit=1&)',
    async run(ctx) {
      const reply = await ctx.get(`${op}?&&limit=1&`)
      ctx.expect(reply.status).toBe(200)
      ctx.expect(ctx.json(reply).parameters).toEqual({ limit: 1, offset: 0 })
    },
  },
  {
    // Lambda's v1 and v2 events do not keep the order of different keys; this is why that is harmless.
    name: 'the order of different query keys does not change the answer',
    async run(ctx) {
      const a = await ctx.get(`${op}?area=DK1&limit=1`)
      const b = await ctx.get(`${op}?limit=1&area=DK1`)
      ctx.expect(b.status).toBe(200)
      ctx.expect(b.headers.etag).toBe(a.headers.etag)
      ctx.expect(b.body).toBe(a.body)
    },
  },
  ...errorCases.map(
    (c): AdapterConformanceCase => ({
      name: c.name,
      async run(ctx) {
        const reply = await ctx.get(c.path, c.init)
        const body = ctx.expectError(reply, c.status, c.code)
        await c.check?.(body, reply, ctx)
      },
      ...(c.exception ? { exception: c.exception } : {}),
    }),
  ),
  {
    name: 'Cache-Control: the source TTL, shorter for search, no-store for errors and feedback',
    async run(ctx) {
      const expected: [string, ConformanceSend, string | RegExp][] = [
        [`${op}?area=FI`, {}, countingDownFrom300],
        ['/api/v1/', {}, countingDownFrom300],
        [sourcePath, {}, countingDownFrom300],
        [`${op}/schema`, {}, countingDownFrom300],
        ['/api/v1/openapi.json', {}, countingDownFrom300],
        ['/api/v1/sok/alle?q=kraft', {}, /^public, max-age=(5\d|60)$/],
        ['/api/v1/kilder/nope', {}, 'no-store'],
        ['/api/v1/feedback', postJson('{"message":"Cache check"}'), 'no-store'],
      ]
      for (const [path, init, cacheControl] of expected) {
        const sent = (await ctx.get(path, init)).headers['cache-control']
        if (typeof cacheControl === 'string') ctx.expect(sent, path).toBe(cacheControl)
        else ctx.expect(sent, path).toMatch(cacheControl)
      }
    },
  },
  {
    name: 'discovery: the API index, with links under the public path, and a 304 for its ETag',
    async run(ctx) {
      const { expect } = ctx
      for (const path of ['/api/v1/', '/api/v1']) {
        const reply = await ctx.get(path)
        expect(reply.status, path).toBe(200)
        const body = ctx.json(reply)
        expect(body._links.self).toBe(`${ctx.prefix}/api/v1/`)
        expect(body.endpoints.operation.url_template).toBe(
          `${ctx.prefix}/api/v1/kilder/{source}/{operation}{?parameters*}`,
        )
        expect(body.sources.map((s: { id: string }) => s.id)).toEqual([source])
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
      const { expect } = ctx
      const reply = await ctx.get(`${sourcePath}?view=names`)
      expect(reply.status).toBe(200)
      ctx.expectLengthMatches(reply)
      expect(reply.headers.etag).toMatch(weakEtag)
      const body = ctx.json(reply)
      expect(body.id).toBe(source)
      expect(body.operations).toContainEqual({ name: operation, operation_descriptor_url: `${ctx.prefix}${op}/schema` })
      expect((await ctx.get(`${sourcePath}?view=everything`)).status).toBe(400)
    },
  },
  {
    name: 'discovery: an operation schema',
    async run(ctx) {
      const reply = await ctx.get(`${op}/schema`)
      ctx.expect(reply.status).toBe(200)
      const body = ctx.json(reply)
      ctx.expect(body).toMatchObject({ source, operation, method: 'GET' })
      ctx.expect(body.get_url_template).toBe(`${ctx.prefix}${op}{?area,limit,offset}`)
    },
  },
  {
    name: 'discovery: the OpenAPI document, served for the public path',
    async run(ctx) {
      const reply = await ctx.get('/api/v1/openapi.json')
      ctx.expect(reply.status).toBe(200)
      ctx.expectLengthMatches(reply)
      const body = ctx.json(reply)
      ctx.expect(body.openapi).toBe('3.1.0')
      ctx.expect(body.paths).toHaveProperty([op])
      ctx.expect(body.servers).toEqual([{ url: ctx.prefix === '' ? '/' : ctx.prefix }])
    },
  },
  {
    name: 'discovery: search with a UTF-8 percent-encoded query (q=str%C3%B8m)',
    async run(ctx) {
      const reply = await ctx.get('/api/v1/sok/alle?q=str%C3%B8m')
      ctx.expect(reply.status).toBe(200)
      const body = ctx.json(reply)
      ctx.expect(body.query).toBe('strøm')
      ctx.expect(body.results[0]).toMatchObject({ id: source, _links: { api: `${ctx.prefix}${sourcePath}` } })
    },
  },
  {
    name: 'feedback: a JSON POST is accepted with 202',
    async run(ctx) {
      const reply = await ctx.get(
        '/api/v1/feedback',
        postJson(JSON.stringify({ source, operation, message: 'Nyttig – takk' })),
      )
      ctx.expect(reply.status).toBe(202)
      ctx.expectLengthMatches(reply)
      const body = ctx.json(reply)
      ctx.expect(body).toMatchObject({
        status: 'accepted',
        feedback: { source, operation, message: 'Nyttig – takk' },
        _links: { api_index: `${ctx.prefix}/api/v1/` },
      })
      ctx.expect(body.feedback.received_at).toMatch(/^\d{4}-\d\d-\d\dT/)
    },
  },
  {
    name: 'feedback: GET describes how to post',
    async run(ctx) {
      const reply = await ctx.get('/api/v1/feedback')
      ctx.expect(reply.status).toBe(200)
      ctx.expect(ctx.json(reply)).toMatchObject({ method: 'POST', url: `${ctx.prefix}/api/v1/feedback` })
    },
  },
  {
    name: "a path the gateway does not own goes on to the host app's 404",
    async run(ctx) {
      const reply = await ctx.get('/elsewhere')
      ctx.expect(reply.status).toBe(404)
      // The framework's own 404 page, not the gateway's JSON.
      ctx.expect(reply.headers['content-type']).toMatch(ctx.hostNotFoundType!)
      ctx.expect(reply.body).not.toContain('route_not_found')
    },
    exception: {
      quirk: 'noHostApp',
      async run(ctx) {
        const body = ctx.expectError(await ctx.get('/elsewhere'), 404, 'route_not_found')
        ctx.expect(body.error.message).toContain('/elsewhere')
      },
    },
  },
  {
    name: "the host app's own /health route keeps working beside the gateway",
    async run(ctx) {
      const reply = await ctx.send(`${ctx.origin}/health`)
      ctx.expect(reply.status).toBe(200)
      ctx.expect(JSON.parse(reply.body)).toEqual({ status: 'ok' })
    },
    exception: {
      quirk: 'noHostApp',
      async run(ctx) {
        ctx.expectError(await ctx.get('/health'), 404, 'route_not_found')
      },
    },
  },
]
