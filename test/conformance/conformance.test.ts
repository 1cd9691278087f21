// The published adapter conformance suite (`runAdapterConformance` from
// @allmenning/core/conformance) through Express, Koa and every Lambda front end (see targets.ts),
// with the MCP endpoints' cases added; then one probe run comparing the answers of every
// target with each other. node-http-adapter.test.ts runs the suite through an adapter of its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Gateway } from '@allmenning/core'
import { mcpServers } from '@allmenning/mcp'
import { mcpConformanceCases, mcpPublicGatewayCases } from '@allmenning/mcp/testing'
import {
  conformanceNames,
  postJson,
  postRpc,
  rpc,
  runAdapterConformance,
  type AdapterConformanceCase,
  sendRequest as send,
  type ConformanceReply as Reply,
  type ConformanceSend as Send,
} from '@allmenning/core/conformance'
import type { FakeUpstream } from '@allmenning/core/testing'
import { startFakeStatnett, statnettPaths } from '@allmenning/sources/statnett/testing'
import { conformanceGateway, explorer, targets, type ConformanceTarget, type StartedTarget } from './targets.js'
import { serverRefusalsThroughTheExit } from './server-refusal-case.js'

const runner = { describe, it, expect, beforeAll, afterAll }

/** MCP's answers are the gateway's too: they leave through its one exit, the suite's hook included. */
const mcpThroughTheExit: AdapterConformanceCase = {
  name: "onResponse: MCP's answers pass the host's hook",
  async run(ctx) {
    const reply = await ctx.get(
      `/${conformanceNames.source}/mcp`,
      postRpc(rpc(2, 'tools/list'), { 'mcp-protocol-version': '2025-06-18' }),
    )
    ctx.expect(reply.status).toBe(200)
    ctx.expect(reply.headers['x-conformance-exit']).toBe('200')
  },
}

for (const target of targets) {
  const start = async (gateway: Gateway) => {
    const started = await target.start(gateway)
    return { url: started.base, close: started.close }
  }
  runAdapterConformance(runner, start, {
    name: target.name,
    ...target.conformance,
    explorer,
    extensions: [mcpServers({ publicGatewayCatalogue: true })],
    cases: [
      ...mcpConformanceCases,
      ...mcpPublicGatewayCases,
      mcpThroughTheExit,
      // Express and Koa run on a Node server of their own, which answers Node's refusals through the gateway.
      ...(target.platform === 'express' || target.platform === 'koa' ? [serverRefusalsThroughTheExit] : []),
    ],
  })
}

// ---------------------------------------------------------------------------------------
// Documented platform exceptions, for the probes

const jsonType = 'application/json; charset=utf-8'
const weakEtag = /^W\/"[^"]+"$/
const op = '/api/v1/kilder/statnett/get_physical_flow'
const longQuery = (chars: number) => `${op}?area=${'N'.repeat(chars)}`
/** Valid JSON, padded past the 16 KB body limit with whitespace. */
const oversizedFeedback = `{"message":"Padded"${' '.repeat(17 * 1024)}}`

interface PlatformException {
  applies(target: ConformanceTarget): boolean
}

const exceptions = {
  albDropsRepeatedKeys: { applies: (t) => t.flavour === 'alb' },
  httpApiDecodesPath: { applies: (t) => t.flavour === 'v2' },
  restApiDecodesQuery: { applies: (t) => t.flavour === 'v1' },
  frontEndLimitsRequestLine: { applies: (t) => t.platform === 'lambda' },
  hostParsesJsonFirst: { applies: (t) => t.hostParsesJson },
} satisfies Record<string, PlatformException>

let fake: FakeUpstream

beforeAll(async () => {
  fake = await startFakeStatnett()
  // Only get_power_situation fails, so the 502 probe never shares a cache key with the others.
  fake.route(statnettPaths.powerSituation, () => ({
    status: 500,
    headers: { 'content-type': 'text/plain' },
    body: 'Internal Server Error',
  }))
})
afterAll(async () => {
  await fake.close()
})

async function startTarget(
  target: ConformanceTarget,
): Promise<{ started: StartedTarget; ctx: { prefix: string; get(path: string, init?: Send): Promise<Reply> } }> {
  const started = await target.start(conformanceGateway(fake.baseUrl))
  const prefix = started.base.slice(started.origin.length)
  return { started, ctx: { prefix, get: (path, init) => send(`${started.base}${path}`, init) } }
}

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
  {
    id: 'operation 304',
    path: `${op}?area=NO2&limit=2`,
    init: (earlier) => ({ headers: { 'if-none-match': String(earlier.get('operation (miss)')!.headers.etag) } }),
  },
  { id: 'operation HEAD', path: `${op}?area=NO2&limit=2`, init: { method: 'HEAD' } },
  { id: 'encoded value', path: `${op}?area=%6E%6F1` },
  { id: 'keys reordered', path: `${op}?limit=1&area=NO2` },
  { id: 'limit out of bounds', path: `${op}?limit=101` },
  { id: '__proto__', path: `${op}?__proto__=1` },
  { id: 'repeated parameter', path: `${op}?area=NO1&area=NO2`, except: exceptions.albDropsRepeatedKeys },
  { id: 'malformed query encoding', path: `${op}?area=%E0%A4%A`, except: exceptions.restApiDecodesQuery },
  { id: 'malformed path encoding', path: '/api/v1/kilder/%E0%A4%A' },
  {
    id: 'encoded slash in a segment',
    path: '/api/v1/kilder/statnett%2Fget_physical_flow',
    except: exceptions.httpApiDecodesPath,
  },
  { id: 'unknown source', path: '/api/v1/kilder/nope' },
  { id: 'unknown operation', path: '/api/v1/kilder/statnett/nope' },
  { id: 'unknown route', path: '/api/v1/nope' },
  { id: 'DELETE', path: op, init: { method: 'DELETE' } },
  { id: 'OPTIONS', path: op, init: { method: 'OPTIONS' } },
  {
    id: 'PUT to feedback',
    path: '/api/v1/feedback',
    init: { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' },
  },
  { id: 'plus and escaped ampersand', path: '/api/v1/sok/alle?q=str%C3%B8m+kraft%26nett' },
  {
    id: 'If-None-Match over two lines',
    path: `${op}?area=NO2&limit=2`,
    init: (earlier) => ({
      headers: { 'if-none-match': ['W/"x"', String(earlier.get('operation (miss)')!.headers.etag)] },
    }),
  },
  { id: 'POST to an operation', path: op, init: postJson('{}') },
  { id: '8 KB query', path: longQuery(8 * 1024) },
  { id: '16 KB query', path: longQuery(16 * 1024), except: exceptions.frontEndLimitsRequestLine },
  { id: 'upstream 500', path: '/api/v1/kilder/statnett/get_power_situation?area=NO4' },
  { id: 'index', path: '/api/v1/' },
  {
    id: 'index 304',
    path: '/api/v1/',
    init: (earlier) => ({ headers: { 'if-none-match': String(earlier.get('index')!.headers.etag) } }),
  },
  { id: 'sources', path: '/api/v1/kilder' },
  { id: 'descriptor', path: '/api/v1/kilder/statnett?view=names' },
  { id: 'descriptor, trailing slash', path: '/api/v1/kilder/statnett/' },
  { id: 'schema', path: '/api/v1/kilder/statnett/get_physical_flow/schema' },
  { id: 'explorer page', path: '/api/v1/docs' },
  {
    id: 'explorer page 304',
    path: '/api/v1/docs',
    init: (earlier) => ({ headers: { 'if-none-match': String(earlier.get('explorer page')!.headers.etag) } }),
  },
  { id: 'explorer script', path: '/api/v1/docs?asset=swagger-ui-bundle.js' },
  { id: 'explorer stylesheet HEAD', path: '/api/v1/docs?asset=swagger-ui.css', init: { method: 'HEAD' } },
  { id: 'openapi', path: '/api/v1/openapi.json' },
  { id: 'openapi HEAD', path: '/api/v1/openapi.json', init: { method: 'HEAD' } },
  { id: 'search', path: '/api/v1/sok/alle?q=str%C3%B8m' },
  { id: 'feedback descriptor', path: '/api/v1/feedback' },
  { id: 'feedback', path: '/api/v1/feedback', init: postJson('{"source":"statnett","message":"Useful"}') },
  {
    id: 'feedback malformed',
    path: '/api/v1/feedback',
    init: postJson('{"message":'),
    except: exceptions.hostParsesJsonFirst,
  },
  {
    id: 'feedback over 16 KB',
    path: '/api/v1/feedback',
    init: postJson(oversizedFeedback),
    except: exceptions.hostParsesJsonFirst,
  },
  { id: 'feedback invalid', path: '/api/v1/feedback', init: postJson('{"message":""}') },
  {
    id: 'feedback text/plain',
    path: '/api/v1/feedback',
    init: { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' },
  },
  {
    id: 'mcp initialize',
    path: '/mcp',
    init: postRpc(
      rpc(1, 'initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'probe', version: '1' },
      }),
    ),
  },
  { id: 'mcp notification', path: '/mcp', init: postRpc({ jsonrpc: '2.0', method: 'notifications/initialized' }) },
  {
    id: 'mcp tools/list',
    path: '/statnett/mcp',
    init: postRpc(rpc(2, 'tools/list'), { 'mcp-protocol-version': '2025-06-18' }),
  },
  {
    id: 'mcp tools/call',
    path: '/statnett/mcp',
    init: postRpc(rpc(3, 'tools/call', { name: 'get_physical_flow', arguments: { area: 'NO2', limit: 2 } })),
  },
  {
    id: 'mcp bad argument',
    path: '/statnett/mcp',
    init: postRpc(rpc(4, 'tools/call', { name: 'get_physical_flow', arguments: { limit: 'x' } })),
  },
  {
    id: 'mcp upstream failure',
    path: '/statnett/mcp',
    init: postRpc(rpc(5, 'tools/call', { name: 'get_power_situation', arguments: { area: 'NO5' } })),
  },
  { id: 'mcp unknown tool', path: '/statnett/mcp', init: postRpc(rpc(6, 'tools/call', { name: 'nope' })) },
  {
    id: 'mcp batch (2025-03-26)',
    path: '/mcp',
    init: postRpc([rpc(7, 'ping'), rpc(8, 'tools/list')], { 'mcp-protocol-version': '2025-03-26' }),
  },
  {
    id: 'mcp batch (2025-06-18)',
    path: '/mcp',
    init: postRpc([rpc(9, 'ping')], { 'mcp-protocol-version': '2025-06-18' }),
  },
  {
    id: 'mcp unsupported version',
    path: '/mcp',
    init: postRpc(rpc(10, 'ping'), { 'mcp-protocol-version': '2099-01-01' }),
  },
  { id: 'mcp only an event stream', path: '/mcp', init: postRpc(rpc(11, 'ping'), { accept: 'text/event-stream' }) },
  {
    id: 'mcp text/plain',
    path: '/mcp',
    init: { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' },
  },
  { id: 'mcp GET', path: '/mcp', init: { headers: { accept: 'text/event-stream' } } },
  { id: 'mcp malformed', path: '/mcp', init: postRpc('{"jsonrpc":'), except: exceptions.hostParsesJsonFirst },
  {
    id: 'mcp over 16 KB',
    path: '/mcp',
    init: postRpc(`{"jsonrpc":"2.0","id":1,"method":"ping"${' '.repeat(17 * 1024)}}`),
    except: exceptions.hostParsesJsonFirst,
  },
]

/** Body with the target's own prefix taken out of links and the per-request times removed. */
function normalizeBody(value: unknown, prefix: string): unknown {
  if (typeof value === 'string') {
    // An MCP text block holds the structured content as JSON text: normalized as that content.
    if (value.startsWith('{"') && value.endsWith('}')) return JSON.stringify(normalizeBody(JSON.parse(value), prefix))
    if (prefix === '') return value
    if (value === prefix) return '/'
    // Links, URL templates and prose that names a route ("then call /data/api/v1/…") or an MCP endpoint.
    return value
      .replaceAll(`${prefix}/api/`, '/api/')
      .replaceAll(`${prefix}/{source}/mcp`, '/{source}/mcp')
      .replaceAll(`${prefix}/mcp`, '/mcp')
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
      // A hit's max-age counts down from the TTL: a target probed a second later says one less.
      'cache-control': header('cache-control')?.replace(
        /max-age=(\d+)/,
        (_, seconds: string) => `max-age≈${Math.ceil(Number(seconds) / 10) * 10}`,
      ),
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
        expect(answers.get(target.name)!.get(probe.id), `${probe.id}: ${target.name} vs ${agreeing[0]!.name}`).toEqual(
          reference,
        )
      }
    }
    // The probes cover a success, a hit, a 304, a HEAD and every error status.
    const statuses = new Set([...answers.values()].flatMap((m) => [...m.values()].map((a) => a.status)))
    for (const status of [200, 202, 304, 400, 404, 405, 414, 415, 502])
      expect(statuses, String(status)).toContain(status)
  })
})
