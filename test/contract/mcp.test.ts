// The MCP endpoints at the gateway's own interface (handle/owns): the Streamable HTTP rules
// (POST only, JSON answers, 202 for notifications, batches by protocol version, JSON-RPC
// errors for bad input) and a tool call going through the same pipeline as the JSON API.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import * as v from 'valibot'
import { createGateway, GatewayError, type Gateway, type GatewayOptions, type GatewayRequest } from '@allmenning/core'
import { defineOperation, defineSource, defineUpstream } from '@allmenning/core/source'
import { mcpServers } from '@allmenning/mcp'
import { statnett } from '@allmenning/sources'
import { startFakeStatnett, statnettJson, statnettPaths } from '@allmenning/sources/statnett/testing'
import type { FakeUpstream } from '@allmenning/core/testing'

let fake: FakeUpstream

beforeAll(async () => {
  fake = await startFakeStatnett()
})
afterAll(() => fake.close())
afterEach(() => {
  vi.restoreAllMocks()
  fake.route(statnettPaths.flow, () =>
    statnettJson('[{"OutAreaElspotId":"NO1","InAreaElspotId":"SE3","Value":1,"MeasureDate":0}]'),
  )
})

const gatewayWith = (options: Partial<GatewayOptions> = {}): Gateway =>
  createGateway({
    sources: [statnett()],
    upstreams: { statnett: { baseUrl: fake.baseUrl } },
    onError: () => {},
    extensions: [mcpServers()],
    ...options,
  })

interface Post {
  headers?: Record<string, string>
  method?: string
  extra?: Partial<GatewayRequest>
}

/** A POST to an MCP endpoint, with the body as text (as Lambda hands it) unless `extra` says otherwise. */
async function post(g: Gateway, path: string, body: unknown, init: Post = {}) {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  const res = await g.handle({
    method: init.method ?? 'POST',
    path,
    query: '',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...init.headers },
    readBody: () => Promise.resolve(text),
    ...init.extra,
  })
  const json =
    res.body && res.headers['content-type']?.startsWith('application/json') ? JSON.parse(res.body) : undefined
  return { ...res, json }
}

const rpc = (id: number | string, method: string, params?: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params ? { params } : {}),
})
const callTool = (name: string, args?: unknown, id = 1) =>
  rpc(id, 'tools/call', { name, ...(args !== undefined ? { arguments: args } : {}) })
const upstreamCalls = () => fake.requests.length

describe('where the MCP endpoints are', () => {
  it('owns /mcp and /{source}/mcp for its sources, and nothing else a host app might have', () => {
    const g = gatewayWith()
    for (const path of ['/mcp', '/mcp/', '/statnett/mcp', '/statnett/mcp/', '/api', '/api/v1/kilder'])
      expect(g.owns(path), path).toBe(true)
    for (const path of ['/nope/mcp', '/mcp/x', '/statnett/mcp/x', '/statnett', '/%E0%A4%A/mcp', '/mcpx', '/health'])
      expect(g.owns(path), path).toBe(false)
  })

  it('has no MCP endpoints unless turned on', async () => {
    const g = createGateway({ sources: [statnett()], onError: () => {} })
    expect(g.owns('/mcp')).toBe(false)
    expect(g.owns('/statnett/mcp')).toBe(false)
    const res = await post(g, '/mcp', rpc(1, 'ping'))
    expect(res.status).toBe(404)
    expect(res.json.error.code).toBe('route_not_found')
  })

  it('refuses an extension without a name of its own when the gateway is made', () => {
    const named = (name: string) => ({ ...mcpServers(), name })
    for (const name of ['', 'api', 'Mcp', 'a/b', '../x']) {
      expect(() => createGateway({ sources: [statnett()], extensions: [named(name)] }), name).toThrow(
        /a name of its own/,
      )
    }
    expect(() => createGateway({ sources: [statnett()], extensions: [mcpServers(), mcpServers()] })).toThrow(
      /a name of its own/,
    )
  })

  it('answers GET, HEAD and DELETE with 405 and Allow: POST (no event stream, no sessions)', async () => {
    const g = gatewayWith()
    for (const method of ['GET', 'HEAD', 'DELETE']) {
      const res = await g.handle({ method, path: '/statnett/mcp', query: '', headers: { accept: 'text/event-stream' } })
      expect(res.status, method).toBe(405)
      expect(res.headers.allow).toBe('POST')
    }
  })

  it('lists the endpoints in the API index under the mount point, and leaves them out of OpenAPI', async () => {
    const g = gatewayWith()
    const index = JSON.parse(
      (await g.handle({ method: 'GET', path: '/api/v1/', query: '', headers: {}, basePath: '/data' })).body!,
    )
    expect(index.endpoints.mcp).toEqual({ method: 'POST', url: '/data/mcp' })
    expect(index.endpoints.source_mcp).toEqual({ method: 'POST', url_template: '/data/{source}/mcp' })
    const openapi = JSON.parse(
      (await g.handle({ method: 'GET', path: '/api/v1/openapi.json', query: '', headers: {} })).body!,
    )
    expect(Object.keys(openapi.paths).filter((p) => p.includes('mcp'))).toEqual([])
  })

  it('answers an unknown source with the 404 of the JSON API when asked directly', async () => {
    const res = await post(gatewayWith(), '/nope/mcp', rpc(1, 'ping'))
    expect(res.status).toBe(404)
    expect(res.json.error.code).toBe('source_not_found')
  })
})

describe('the lifecycle, statelessly', () => {
  it.each([
    ['2025-11-25', '2025-11-25'],
    ['2025-06-18', '2025-06-18'],
    ['2025-03-26', '2025-03-26'],
    ['2024-11-05', '2024-11-05'],
    ['2026-07-28', '2025-11-25'],
    ['1999-01-01', '2025-11-25'],
  ])('initialize asking for %s is answered with %s', async (asked, answered) => {
    const res = await post(
      gatewayWith(),
      '/statnett/mcp',
      rpc(1, 'initialize', { protocolVersion: asked, capabilities: {}, clientInfo: { name: 't', version: '1' } }),
    )
    expect(res.status).toBe(200)
    expect(res.headers['mcp-session-id']).toBeUndefined()
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.json).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: {
        protocolVersion: answered,
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: 'allmenning-statnett', version: '0.1.0' },
      },
    })
  })

  it("answers initialize without a protocolVersion with the SDK's JSON-RPC error naming it", async () => {
    const res = await post(gatewayWith(), '/mcp', rpc('a', 'initialize', {}))
    expect(res.status).toBe(200)
    // The SDK server answers params that fail its schema with -32603 and the schema's issues.
    expect(res.json).toMatchObject({ jsonrpc: '2.0', id: 'a', error: { code: -32603 } })
    expect(res.json.error.message).toContain('protocolVersion')
    expect(res.json.error.message).not.toMatch(/\n\s+at /)
  })

  it('accepts notifications and client responses with 202 and no body', async () => {
    const g = gatewayWith()
    for (const message of [
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', method: 'notifications/whatever' },
      { jsonrpc: '2.0', id: 9, result: {} },
    ]) {
      const res = await post(g, '/mcp', message)
      expect(res.status).toBe(202)
      expect(res.body).toBeNull()
    }
  })

  it('answers ping, and any other method with -32601', async () => {
    const g = gatewayWith()
    expect((await post(g, '/mcp', rpc(1, 'ping'))).json).toEqual({ jsonrpc: '2.0', id: 1, result: {} })
    for (const method of ['resources/list', 'prompts/list', 'logging/setLevel']) {
      const res = await post(g, '/mcp', rpc(2, method))
      expect(res.status).toBe(200)
      expect(res.json.error.code, method).toBe(-32601)
    }
  })

  it('checks MCP-Protocol-Version after initialize: a 400 for a version it does not speak', async () => {
    const g = gatewayWith()
    expect((await post(g, '/mcp', rpc(1, 'ping'), { headers: { 'mcp-protocol-version': '2025-06-18' } })).status).toBe(
      200,
    )
    const res = await post(g, '/mcp', rpc(1, 'ping'), { headers: { 'mcp-protocol-version': '2099-01-01' } })
    expect(res.status).toBe(400)
    expect(res.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } })
    expect(res.json.error.message).toContain('2025-11-25, 2025-06-18, 2025-03-26')
    // initialize negotiates in its body, whatever a header says.
    const initialize = rpc(1, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 't', version: '1' },
    })
    expect((await post(g, '/mcp', initialize, { headers: { 'mcp-protocol-version': '2099-01-01' } })).status).toBe(200)
  })
})

describe('bad input is a JSON-RPC error, never a 500', () => {
  it.each([
    ['malformed JSON', '{"jsonrpc":', 400, -32700],
    ['an empty body', '', 400, -32700],
    // Whatever fails the SDK's JSON-RPC message schema is refused whole, as the SDK's own transport does.
    ['a string', '"ping"', 400, -32700],
    ['no jsonrpc member', '{"id":1,"method":"ping"}', 400, -32700],
    ['jsonrpc 1.0', '{"jsonrpc":"1.0","id":1,"method":"ping"}', 400, -32700],
    ['a null id', '{"jsonrpc":"2.0","id":null,"method":"ping"}', 400, -32700],
    ['an object id', '{"jsonrpc":"2.0","id":{},"method":"ping"}', 400, -32700],
    ['a numeric method', '{"jsonrpc":"2.0","id":1,"method":5}', 400, -32700],
    ['params as a string', '{"jsonrpc":"2.0","id":1,"method":"ping","params":"x"}', 400, -32700],
    ['params as an array', '{"jsonrpc":"2.0","id":1,"method":"ping","params":[]}', 400, -32700],
    ['neither method nor result', '{"jsonrpc":"2.0","id":1}', 400, -32700],
    ['__proto__ as the message', '{"__proto__":{"jsonrpc":"2.0"},"id":1,"method":"ping"}', 400, -32700],
  ])('%s', async (_name, body, status, code) => {
    const res = await post(gatewayWith(), '/mcp', body)
    expect(res.status).toBe(status)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.json.jsonrpc).toBe('2.0')
    expect(res.json.error.code).toBe(code)
    expect(res.json.error.message).not.toMatch(/\n\s+at /)
  })

  it('refuses a body that is not JSON with 415, and reads one sent with no Content-Type', async () => {
    const g = gatewayWith()
    const refused = await post(g, '/mcp', rpc(1, 'ping'), { headers: { 'content-type': 'text/plain' } })
    expect(refused.status).toBe(415)
    expect(refused.json.error.code).toBe(-32000)
    const { 'content-type': _type, ...headers } = { 'content-type': '', accept: 'application/json' }
    const res = await g.handle({
      method: 'POST',
      path: '/mcp',
      query: '',
      headers,
      readBody: () => Promise.resolve('{"jsonrpc":"2.0","id":1,"method":"ping"}'),
    })
    expect(res.status).toBe(200)
  })

  it('refuses a body over 16 KB with 413, whatever adapter held it', async () => {
    const res = await post(gatewayWith(), '/mcp', `{"jsonrpc":"2.0","id":1,"method":"ping"${' '.repeat(17 * 1024)}}`)
    expect(res.status).toBe(413)
    expect(res.json).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: 'Payload Too Large: Request body must not exceed 16384 bytes' },
    })
  })

  it('refuses a body over 16 KB that a host app parsed already, by its JSON or by its Content-Length', async () => {
    const g = gatewayWith()
    const before = upstreamCalls()
    const big = callTool('get_physical_flow', { area: 'NO1', pad: 'x'.repeat(17 * 1024) })
    const parsed = await post(g, '/statnett/mcp', '', { extra: { readBody: () => Promise.resolve(big) } })
    expect(parsed.status).toBe(413)
    expect(parsed.json.error).toEqual({
      code: -32000,
      message: 'Payload Too Large: Request body must not exceed 16384 bytes',
    })
    // Whitespace a parser dropped still counts: the client sent it.
    const sent = await post(g, '/statnett/mcp', '', {
      headers: { 'content-length': String(17 * 1024) },
      extra: { readBody: () => Promise.resolve(rpc(1, 'ping')) },
    })
    expect(sent.status).toBe(413)
    expect(upstreamCalls()).toBe(before)
    const small = await post(g, '/statnett/mcp', '', {
      headers: { 'content-length': '40' },
      extra: { readBody: () => Promise.resolve(rpc(1, 'ping')) },
    })
    expect(small.json).toEqual({ jsonrpc: '2.0', id: 1, result: {} })
  })

  it('refuses a body the adapter found over the limit as it read it with 413', async () => {
    const res = await post(gatewayWith(), '/mcp', '', {
      extra: {
        readBody: () =>
          Promise.reject(
            Object.assign(
              new GatewayError(413, 'body_too_large', 'too large', {
                details: [{ parameter: 'body', problem: 'must be at most 16384 bytes', rule: 'max_size' }],
              }),
            ),
          ),
      },
    })
    expect(res.status).toBe(413)
    expect(res.json.error.code).toBe(-32000)
  })

  it("answers a host parser's refusals at its paths as JSON-RPC errors, elsewhere in the shared error body", async () => {
    const g = gatewayWith()
    const malformed = Object.assign(new SyntaxError('Unexpected end of JSON input'), {
      status: 400,
      type: 'entity.parse.failed',
    })
    const big = Object.assign(new Error('request entity too large'), { status: 413, type: 'entity.too.large' })
    const charset = Object.assign(new Error('unsupported charset "KLINGON"'), {
      status: 415,
      type: 'charset.unsupported',
    })
    const parsed = (res: { body: string | null }) => JSON.parse(res.body!)
    for (const path of ['/mcp', '/statnett/mcp']) {
      expect(parsed(g.answerHostError!(malformed, { path }))).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'Parse error: Invalid JSON' },
      })
      const tooBig = g.answerHostError!(big, { path })
      expect(tooBig.status).toBe(413)
      expect(parsed(tooBig).error.code).toBe(-32000)
      expect(g.answerHostError!(charset, { path }).status).toBe(415)
      const failed = g.answerHostError!(new Error('the host broke'), { path })
      expect(failed.status).toBe(500)
      expect(parsed(failed)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32603, message: 'Internal error' } })
    }
    for (const path of ['/api/v1/feedback', '/api/v1/nope', '/nope/mcp', '/health']) {
      expect(parsed(g.answerHostError!(malformed, { path, basePath: '/data' })).error, path).toMatchObject({
        status: 400,
        code: 'invalid_body',
      })
    }
  })

  it('turns a failing body reader into a JSON-RPC 400', async () => {
    const res = await post(gatewayWith(), '/mcp', '', {
      extra: { readBody: () => Promise.reject(new Error('socket hang up')) },
    })
    expect(res.status).toBe(400)
    expect(res.json.error.code).toBe(-32600)
  })

  it('takes a body a host app has parsed already', async () => {
    const res = await post(gatewayWith(), '/mcp', '', { extra: { readBody: () => Promise.resolve(rpc(3, 'ping')) } })
    expect(res.json).toEqual({ jsonrpc: '2.0', id: 3, result: {} })
  })

  it("refuses a form a host's urlencoded parser made an object of with 415", async () => {
    const form = { jsonrpc: '2.0', id: '3', method: 'ping' }
    const res = await post(gatewayWith(), '/mcp', '', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      extra: { readBody: () => Promise.resolve(form) },
    })
    expect(res.status).toBe(415)
    expect(res.json.error.code).toBe(-32000)
  })
})

describe('Accept and Origin', () => {
  it.each([
    [undefined],
    ['application/json'],
    ['*/*'],
    ['application/json, text/event-stream'],
    ['text/event-stream;q=0.5, application/json'],
  ])('answers JSON to Accept %s', async (accept) => {
    const res = await post(gatewayWith(), '/mcp', rpc(1, 'ping'), {
      headers: accept === undefined ? { accept: '' } : { accept },
    })
    expect(res.status).toBe(200)
    expect(res.json).toEqual({ jsonrpc: '2.0', id: 1, result: {} })
  })

  it('answers one server-sent event to a client that takes only an event stream', async () => {
    const res = await post(gatewayWith(), '/mcp', rpc(1, 'ping'), { headers: { accept: 'text/event-stream' } })
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8')
    expect(res.body).toMatch(/^event: message\ndata: \{.*\}\n\n$/)
    expect(JSON.parse(res.body!.split('data: ')[1]!)).toEqual({ jsonrpc: '2.0', id: 1, result: {} })
  })

  it('answers 406 to a client that takes neither', async () => {
    const res = await post(gatewayWith(), '/mcp', rpc(1, 'ping'), {
      headers: { accept: 'text/html, application/json;q=0' },
    })
    expect(res.status).toBe(406)
    expect(res.json.error.code).toBe(-32000)
  })

  const origin = (g: Gateway, headers: Record<string, string>, body: unknown = rpc(1, 'tools/list')) =>
    post(g, '/statnett/mcp', body, { headers })

  it.each([
    ['a foreign page on a local server', { origin: 'http://evil.example', host: 'localhost:3000' }],
    ['a foreign page on a public server', { origin: 'https://evil.example', host: 'data.example.no' }],
    // DNS rebinding: evil.example was made to resolve to 127.0.0.1, so Origin and Host agree.
    ['a rebound name', { origin: 'http://evil.example:3000', host: 'evil.example:3000' }],
    ['the same name on another port', { origin: 'http://localhost:8080', host: 'localhost:3000' }],
    ['a sandboxed frame or a file (Origin: null)', { origin: 'null', host: 'localhost:3000' }],
    ['an Origin that is no URL', { origin: 'localhost:3000', host: 'localhost:3000' }],
  ])('refuses %s with 403 by default, before any tool is called', async (_name, headers) => {
    const g = gatewayWith()
    const before = upstreamCalls()
    for (const body of [rpc(1, 'tools/list'), callTool('get_physical_flow', { area: 'NO1' })]) {
      const res = await origin(g, headers, body)
      expect(res.status).toBe(403)
      expect(res.json).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: expect.stringContaining('Forbidden') },
      })
    }
    expect(upstreamCalls()).toBe(before)
  })

  it.each([
    ['no Origin (an agent, curl)', { host: 'evil.example:3000' }],
    ['a page on localhost', { origin: 'http://localhost:3000', host: 'localhost:3000' }],
    ['a page on a name under localhost', { origin: 'http://app.localhost:3000', host: 'app.localhost:3000' }],
    ['a page on 127.0.0.1', { origin: 'http://127.0.0.1:3000', host: '127.0.0.1:3000' }],
    ['a page on [::1]', { origin: 'http://[::1]:3000', host: '[::1]:3000' }],
    ['a page on the default port', { origin: 'http://10.0.0.5', host: '10.0.0.5:80' }],
  ])('answers %s', async (_name, headers) => {
    const res = await origin(gatewayWith(), headers)
    expect(res.status).toBe(200)
    expect(res.json.result.tools.length).toBeGreaterThan(0)
  })

  it("answers a page on publicBaseUrl's host, whatever Host a proxy sends", async () => {
    const g = gatewayWith({ publicBaseUrl: 'https://data.example.no/data' })
    expect((await origin(g, { origin: 'https://data.example.no', host: 'internal:8080' })).status).toBe(200)
    expect((await origin(g, { origin: 'https://other.example.no', host: 'internal:8080' })).status).toBe(403)
  })

  it('answers the origins of allowedOrigins, or every origin for *', async () => {
    const g = gatewayWith({
      extensions: [mcpServers({ allowedOrigins: ['https://app.example.no', 'http://localhost:5173/'] })],
    })
    expect((await origin(g, { origin: 'https://app.example.no', host: 'data.example.no' })).status).toBe(200)
    expect((await origin(g, { origin: 'http://localhost:5173', host: 'localhost:3000' })).status).toBe(200)
    expect((await origin(g, { origin: 'https://evil.example', host: 'data.example.no' })).status).toBe(403)
    const open = gatewayWith({ extensions: [mcpServers({ allowedOrigins: ['*'] })] })
    expect((await origin(open, { origin: 'https://evil.example', host: 'data.example.no' })).status).toBe(200)
  })

  it("refuses a Host outside allowedHosts, with an Origin or without, and takes its pages as the gateway's own", async () => {
    const g = gatewayWith({ extensions: [mcpServers({ allowedHosts: ['localhost', 'gateway.intern'] })] })
    expect((await origin(g, { host: 'evil.example:3000' })).status).toBe(403)
    expect((await origin(g, { origin: 'http://evil.example:3000', host: 'evil.example:3000' })).status).toBe(403)
    expect((await origin(g, {})).status).toBe(403)
    expect((await origin(g, { host: 'localhost:3000' })).status).toBe(200)
    expect((await origin(g, { origin: 'http://gateway.intern:3000', host: 'gateway.intern:3000' })).status).toBe(200)
  })

  it('refuses an allowedOrigins entry that is not an origin when the gateway is made', () => {
    expect(() =>
      gatewayWith({ extensions: [mcpServers({ allowedOrigins: ['https://app.example.no/page'] })] }),
    ).toThrow(/allowedOrigins/)
    expect(() => gatewayWith({ extensions: [mcpServers({ allowedOrigins: ['app.example.no'] })] })).toThrow(
      /allowedOrigins/,
    )
  })

  it("does not count a refused Origin against the visitor's rate limit", async () => {
    const g = gatewayWith({ rateLimit: { quota: { requests: 1, windowSeconds: 60 } } })
    const client = { clientAddress: '127.0.0.1' }
    for (let i = 0; i < 3; i++)
      expect(
        (
          await post(g, '/mcp', rpc(1, 'ping'), {
            headers: { origin: 'http://evil.example', host: 'localhost:3000' },
            extra: client,
          })
        ).status,
      ).toBe(403)
    expect((await post(g, '/mcp', rpc(1, 'ping'), { headers: { host: 'localhost:3000' }, extra: client })).status).toBe(
      200,
    )
  })
})

describe('batches, as the SDK transport takes them', () => {
  const v2025_03 = { headers: { 'mcp-protocol-version': '2025-03-26' } }

  it('answers a batch with one response per request, in order', async () => {
    const res = await post(
      gatewayWith(),
      '/statnett/mcp',
      [
        rpc(1, 'ping'),
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        callTool('get_physical_flow', { area: 'SE3' }, 2),
      ],
      v2025_03,
    )
    expect(res.status).toBe(200)
    expect(res.json).toHaveLength(2)
    expect(res.json[0]).toEqual({ jsonrpc: '2.0', id: 1, result: {} })
    expect(res.json[1]).toMatchObject({ id: 2, result: { isError: false, structuredContent: { source: 'statnett' } } })
  })

  it('answers two requests with the same id in one batch each with its own answer', async () => {
    const res = await post(gatewayWith(), '/statnett/mcp', [
      callTool('get_physical_flow', { area: 'SE3' }, 5),
      rpc(5, 'ping'),
    ])
    expect(res.json).toHaveLength(2)
    expect(res.json[0]).toMatchObject({ id: 5, result: { isError: false } })
    expect(res.json[1]).toEqual({ jsonrpc: '2.0', id: 5, result: {} })
  })

  it('accepts a batch of notifications only with 202', async () => {
    const res = await post(gatewayWith(), '/mcp', [{ jsonrpc: '2.0', method: 'notifications/initialized' }], v2025_03)
    expect(res.status).toBe(202)
  })

  it.each([['2025-06-18'], ['2025-11-25']])(
    'refuses a batch under %s, which has none, with 400 and calls nothing',
    async (version) => {
      const before = upstreamCalls()
      const res = await post(
        gatewayWith(),
        '/statnett/mcp',
        [callTool('get_physical_flow', { area: 'SE3' }, 1), rpc(2, 'ping')],
        { headers: { 'mcp-protocol-version': version } },
      )
      expect(res.status).toBe(400)
      expect(res.json).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: expect.stringContaining('no JSON-RPC batches') },
      })
      expect(upstreamCalls()).toBe(before)
    },
  )

  it('takes at most 10 tool calls in one batch, with rate limits off', async () => {
    const g = gatewayWith()
    const calls = (n: number) => Array.from({ length: n }, (_, i) => callTool('search_sources', { q: `kraft ${i}` }, i))
    const before = upstreamCalls()
    const refused = await post(g, '/mcp', calls(11), v2025_03)
    expect(refused.status).toBe(400)
    expect(refused.json).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request: a batch may call at most 10 tools' },
    })
    // With no header the transport assumes 2025-03-26, so the bound holds there too.
    expect((await post(g, '/mcp', calls(100))).status).toBe(400)
    expect(upstreamCalls()).toBe(before)
    const answered = await post(g, '/mcp', [...calls(10), rpc(99, 'ping')], v2025_03)
    expect(answered.status).toBe(200)
    expect(answered.json).toHaveLength(11)
  })

  it.each([
    ['an empty batch', [], -32600],
    [
      'initialize beside another message',
      [
        rpc(1, 'initialize', {
          protocolVersion: '2025-03-26',
          capabilities: {},
          clientInfo: { name: 't', version: '1' },
        }),
        rpc(2, 'ping'),
      ],
      -32600,
    ],
    ['more than 100 messages', Array.from({ length: 101 }, (_, i) => rpc(i, 'ping')), -32600],
    ['a member that is not JSON-RPC', [rpc(1, 'ping'), 7], -32700],
  ])('refuses %s with 400', async (_name, batch, code) => {
    const res = await post(gatewayWith(), '/mcp', batch, v2025_03)
    expect(res.status).toBe(400)
    expect(res.json).toMatchObject({ id: null, error: { code } })
  })
})

describe('tools/list and tools/call', () => {
  it('refuses a cursor it never handed out, an unknown tool and params the SDK cannot read', async () => {
    const g = gatewayWith()
    expect((await post(g, '/mcp', rpc(1, 'tools/list', { cursor: 'abc' }))).json.error.code).toBe(-32602)
    expect((await post(g, '/statnett/mcp', callTool('nope'))).json.error.code).toBe(-32602)
    // Params that fail the SDK's own schema: its -32603, naming the field.
    expect((await post(g, '/statnett/mcp', rpc(1, 'tools/call', {}))).json.error).toMatchObject({
      code: -32603,
      message: expect.stringContaining('name'),
    })
    expect((await post(g, '/statnett/mcp', callTool('get_physical_flow', [1]))).json.error).toMatchObject({
      code: -32603,
      message: expect.stringContaining('arguments'),
    })
  })

  it.each([
    ['an out-of-bounds limit', { limit: 0 }, 'invalid_parameter', 'limit'],
    ['a wrong type', { limit: 'many' }, 'invalid_parameter', 'limit'],
    ['an unknown argument', { aera: 'NO1' }, 'unknown_parameter', 'aera'],
    ['an array value', { area: ['NO1'] }, 'invalid_parameter', 'area'],
    ['an object value', { area: { x: 1 } }, 'invalid_parameter', 'area'],
    ['a lone surrogate', { area: '\uD800' }, 'invalid_parameter', 'area'],
  ])(
    'answers %s with a tool error carrying the shared 400 body, without calling the upstream',
    async (_name, args, code, parameter) => {
      const before = upstreamCalls()
      const res = await post(gatewayWith(), '/statnett/mcp', callTool('get_physical_flow', args))
      expect(res.status).toBe(200)
      expect(res.json.result.isError).toBe(true)
      const body = res.json.result.structuredContent
      expect(Object.keys(body)).toEqual(['error', '_meta', '_links'])
      expect(body.error).toMatchObject({ status: 400, code })
      expect(body.error.details[0].parameter).toBe(parameter)
      expect(JSON.parse(res.json.result.content[0].text)).toEqual(body)
      expect(upstreamCalls()).toBe(before)
    },
  )

  it('reads "5" and 5, true and "yes", and null as left out, as the query string would', async () => {
    const g = gatewayWith()
    const a = await post(g, '/statnett/mcp', callTool('get_physical_flow', { limit: 5, offset: null }))
    const b = await post(g, '/statnett/mcp', callTool('get_physical_flow', { limit: '5' }))
    expect(a.json.result.structuredContent.parameters).toEqual({ limit: 5, offset: 0 })
    expect(b.json.result.structuredContent).toEqual(a.json.result.structuredContent)
  })

  it('answers with the envelope even when the POST carries the ETag of that very answer', async () => {
    const g = gatewayWith()
    const rest = await g.handle({
      method: 'GET',
      path: '/api/v1/kilder/statnett/get_physical_flow',
      query: 'area=NO3',
      headers: {},
    })
    const res = await post(g, '/statnett/mcp', callTool('get_physical_flow', { area: 'NO3' }), {
      headers: { 'if-none-match': rest.headers.etag! },
    })
    expect(res.status).toBe(200)
    expect(res.json.result.structuredContent).toEqual(JSON.parse(rest.body!))
  })

  it('shares the cache and the single flight with the JSON API', async () => {
    fake.route(statnettPaths.flow, async () => ({
      ...statnettJson('[{"OutAreaElspotId":"NO1","InAreaElspotId":"SE3","Value":1,"MeasureDate":0}]'),
      delayMs: 100,
    }))
    const g = gatewayWith()
    const before = upstreamCalls()
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, () => post(g, '/statnett/mcp', callTool('get_physical_flow', { area: 'NO5' }))),
      ...Array.from({ length: 5 }, () =>
        g.handle({ method: 'GET', path: '/api/v1/kilder/statnett/get_physical_flow', query: 'area=NO5', headers: {} }),
      ),
    ])
    expect(upstreamCalls() - before).toBe(1)
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200))
    const rest = await g.handle({
      method: 'GET',
      path: '/api/v1/kilder/statnett/get_physical_flow',
      query: 'area=NO5',
      headers: {},
    })
    expect(rest.headers['cache-status']).toMatch(/; hit;/)
    expect(JSON.parse(rest.body!)).toEqual((answers[0] as { json: any }).json.result.structuredContent)
  })

  it('serves a stale copy that says so when the upstream fails', async () => {
    const g = gatewayWith()
    const first = await post(g, '/statnett/mcp', callTool('get_physical_flow', { area: 'FI' }))
    expect(first.json.result.structuredContent._meta.stale).toBe(false)
    vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 301_000)
    fake.route(statnettPaths.flow, () => ({ status: 500, body: 'Internal Server Error' }))
    const stale = await post(g, '/statnett/mcp', callTool('get_physical_flow', { area: 'FI' }))
    expect(stale.json.result.isError).toBe(false)
    expect(stale.json.result.structuredContent._meta).toMatchObject({
      stale: true,
      stale_reason: 'Upstream Statnett driftsdata (statnett) answered HTTP 500',
    })
    expect(stale.json.result.structuredContent.data).toEqual(first.json.result.structuredContent.data)
  })

  it('answers an upstream failure without a stale copy with a tool error carrying the 502 body', async () => {
    fake.route(statnettPaths.flow, () => ({ status: 500, body: 'Internal Server Error' }))
    const res = await post(gatewayWith(), '/statnett/mcp', callTool('get_physical_flow', { area: 'DK2' }))
    expect(res.status).toBe(200)
    expect(res.json.result).toMatchObject({
      isError: true,
      structuredContent: { error: { status: 502, code: 'upstream_error', upstream: 'statnett' } },
    })
  })

  it('answers an operation that throws with a tool error carrying the 500 body, never a transport 500', async () => {
    const upstream = defineUpstream({
      id: 'broken',
      name: 'Broken',
      baseUrl: 'http://127.0.0.1:9',
      publisher: 'Nobody',
    })
    const broken = defineSource({
      id: 'broken',
      name: 'Broken',
      description: 'Always fails.',
      documentation: 'https://example.org',
      topic: 'test',
      keywords: [],
      contentLanguages: ['en'],
      cacheTtlSeconds: 60,
      upstreams: [upstream],
      operations: [
        defineOperation({
          name: 'fail',
          description: 'Throws.',
          parameters: {},
          output: v.object({ x: v.number() }),
          run: () => {
            throw new TypeError('a bug')
          },
        }),
      ],
    })
    const errors: unknown[] = []
    const g = createGateway({ sources: [broken], extensions: [mcpServers()], onError: (error) => errors.push(error) })
    const res = await post(g, '/broken/mcp', callTool('fail', {}))
    expect(res.status).toBe(200)
    expect(res.json.result).toMatchObject({
      isError: true,
      structuredContent: { error: { status: 500, code: 'internal_error' } },
    })
    expect(res.body).not.toContain('a bug')
    expect(errors).toHaveLength(1)
  })

  it('builds every link, template and instruction under the mount point or publicBaseUrl', async () => {
    const mounted = await post(gatewayWith(), '/statnett/mcp', callTool('get_physical_flow', { area: 'SE1' }), {
      extra: { basePath: '/data' },
    })
    expect(mounted.json.result.structuredContent._links.self).toBe(
      '/data/api/v1/kilder/statnett/get_physical_flow?area=SE1&limit=25&offset=0',
    )
    const list = await post(gatewayWith(), '/statnett/mcp', rpc(1, 'tools/list'), { extra: { basePath: '/data' } })
    expect(list.json.result.tools[0].description).toContain('GET /data/api/v1/kilder/statnett/')
    const g = gatewayWith({ publicBaseUrl: 'https://data.example.no' })
    const init = await post(
      g,
      '/mcp',
      rpc(1, 'initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      }),
    )
    expect(init.json.result.instructions).toContain('https://data.example.no/{source}/mcp')
    expect(init.json.result.instructions).toContain('GET https://data.example.no/api/v1/kilder/{source}/{operation}')
  })
})

describe('the catalogue tools', () => {
  it('take their input schemas from the routes they call', async () => {
    const res = await post(gatewayWith(), '/mcp', rpc(1, 'tools/list'))
    const tools = Object.fromEntries(res.json.result.tools.map((t: { name: string }) => [t.name, t]))
    expect(tools.search_sources.inputSchema).toMatchObject({
      type: 'object',
      required: ['q'],
      additionalProperties: false,
      properties: {
        q: { type: 'string', minLength: 1, maxLength: 200 },
        mode: { enum: ['auto', 'source_discovery', 'entities', 'all'], default: 'auto' },
      },
    })
    expect(tools.describe_source.inputSchema).toMatchObject({
      required: ['source'],
      properties: { source: { enum: ['statnett'] }, view: { default: 'full' } },
    })
    expect(tools.describe_operation.inputSchema.required).toEqual(['source', 'operation'])
    expect(tools.get_data.inputSchema).toMatchObject({
      required: ['source', 'operation'],
      properties: { parameters: { type: 'object' } },
    })
    expect(tools.list_sources.inputSchema).toEqual({ type: 'object', properties: {}, additionalProperties: false })
  })

  it.each([
    ['search_sources without q', 'search_sources', {}, 'invalid_parameter', 'q'],
    [
      'search_sources with an unknown mode',
      'search_sources',
      { q: 'x', mode: 'everything' },
      'invalid_parameter',
      'mode',
    ],
    ['describe_source without source', 'describe_source', {}, 'invalid_parameter', 'source'],
    ['describe_source with a numeric source', 'describe_source', { source: 5 }, 'invalid_parameter', 'source'],
    [
      'get_data with flat parameters',
      'get_data',
      { source: 'statnett', operation: 'get_physical_flow', area: 'NO1' },
      'unknown_parameter',
      'area',
    ],
    [
      'get_data with parameters as a list',
      'get_data',
      { source: 'statnett', operation: 'get_physical_flow', parameters: ['NO1'] },
      'invalid_parameter',
      'parameters',
    ],
    [
      'get_data with an operation parameter out of bounds',
      'get_data',
      { source: 'statnett', operation: 'get_physical_flow', parameters: { limit: 0 } },
      'invalid_parameter',
      'limit',
    ],
  ])('%s is a tool error naming the argument', async (_name, tool, args, code, parameter) => {
    const res = await post(gatewayWith(), '/mcp', callTool(tool, args))
    expect(res.json.result.isError).toBe(true)
    expect(res.json.result.structuredContent.error).toMatchObject({
      code,
      details: [expect.objectContaining({ parameter })],
    })
  })

  it('keeps a path argument inside its segment', async () => {
    const res = await post(
      gatewayWith(),
      '/mcp',
      callTool('describe_operation', { source: 'statnett', operation: '../../openapi.json' }),
    )
    expect(res.json.result.structuredContent.error).toMatchObject({ status: 404, code: 'operation_not_found' })
  })
})

describe('rate limits count each tool call once, as the GET it stands for', () => {
  const client = { clientAddress: '203.0.113.9' }
  const limited = (rateLimit: GatewayOptions['rateLimit']) => gatewayWith({ rateLimit })

  it('lets three tool calls through a quota of three, and refuses the fourth as a tool error carrying the 429 body', async () => {
    const g = limited({ quota: { requests: 3, windowSeconds: 60 } })
    for (const area of ['NO1', 'NO2', 'NO3']) {
      const res = await post(g, '/statnett/mcp', callTool('get_physical_flow', { area }), { extra: client })
      expect(res.json.result.isError, area).toBe(false)
    }
    const over = await post(g, '/statnett/mcp', callTool('get_physical_flow', { area: 'NO4' }), { extra: client })
    expect(over.status).toBe(200)
    expect(over.json.result).toMatchObject({
      isError: true,
      structuredContent: { error: { status: 429, code: 'rate_limited' } },
    })
    // The JSON API shares the count: the same client is over its quota there too.
    const rest = await g.handle({
      method: 'GET',
      path: '/api/v1/kilder/statnett/get_physical_flow',
      query: '',
      headers: {},
      ...client,
    })
    expect(rest.status).toBe(429)
  })

  it('counts a POST that calls no tool once, and answers it with a JSON-RPC 429 and Retry-After when over', async () => {
    const g = limited({ quota: { requests: 2, windowSeconds: 60 } })
    const init = await post(g, '/mcp', rpc(1, 'initialize', { protocolVersion: '2025-11-25' }), { extra: client })
    expect(init.status).toBe(200)
    expect(init.headers.ratelimit).toBe('"default";r=1;t=60')
    expect(
      (await post(g, '/mcp', { jsonrpc: '2.0', method: 'notifications/initialized' }, { extra: client })).status,
    ).toBe(202)
    const over = await post(g, '/mcp', rpc(2, 'tools/list'), { extra: client })
    expect(over.status).toBe(429)
    expect(over.headers['retry-after']).toMatch(/^\d+$/)
    expect(over.json).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: expect.stringContaining('Too many requests') },
    })
    // Another client is counted on its own.
    expect((await post(g, '/mcp', rpc(3, 'ping'), { extra: { clientAddress: '198.51.100.7' } })).status).toBe(200)
  })

  it('counts search_sources against the stricter quota of /sok/alle', async () => {
    const g = limited({ expensive: { requests: 1, windowSeconds: 60 } })
    expect(
      (await post(g, '/mcp', callTool('search_sources', { q: 'strøm' }), { extra: client })).json.result.isError,
    ).toBe(false)
    const over = await post(g, '/mcp', callTool('search_sources', { q: 'kraft' }), { extra: client })
    expect(over.json.result.structuredContent.error).toMatchObject({ status: 429, code: 'rate_limited' })
    expect(over.json.result.structuredContent.error.message).toContain('expensive')
    // Describing a source is not expensive.
    expect(
      (await post(g, '/mcp', callTool('describe_source', { source: 'statnett', view: 'names' }), { extra: client }))
        .json.result.isError,
    ).toBe(false)
  })

  it('counts every search_sources call of a batch against the stricter quota, refusing those over it with 429', async () => {
    const g = limited({ expensive: { requests: 3, windowSeconds: 60 } })
    const batch = Array.from({ length: 5 }, (_, i) => callTool('search_sources', { q: `kraft ${i}` }, i))
    const res = await post(g, '/mcp', batch, { headers: { 'mcp-protocol-version': '2025-03-26' }, extra: client })
    const statuses = res.json.map(
      (a: { result: { structuredContent: { error?: { status: number } } } }) =>
        a.result.structuredContent.error?.status ?? 200,
    )
    expect(statuses.filter((s: number) => s === 429)).toHaveLength(2)
    expect(statuses.filter((s: number) => s === 200)).toHaveLength(3)
  })

  it('counts every tool call of a 2025-03-26 batch', async () => {
    const g = limited({ quota: { requests: 2, windowSeconds: 60 } })
    const batch = [
      callTool('get_physical_flow', { area: 'SE1' }, 1),
      callTool('get_physical_flow', { area: 'SE2' }, 2),
      callTool('get_physical_flow', { area: 'SE4' }, 3),
    ]
    const res = await post(g, '/statnett/mcp', batch, {
      headers: { 'mcp-protocol-version': '2025-03-26' },
      extra: client,
    })
    expect(res.json.map((a: { result: { isError: boolean } }) => a.result.isError)).toEqual([false, false, true])
  })
})
