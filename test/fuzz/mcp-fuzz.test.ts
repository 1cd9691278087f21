// Whatever a client POSTs to an MCP endpoint, the answer is a known status with a JSON-RPC
// body (or an empty 202), never a 500, never a stack trace, and the gateway reports no
// internal error. Bodies range from garbage text to well-formed tools/call requests with
// hostile arguments, single or batched, under every protocol version header.
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, type Gateway } from '@allmenning/core'
import { mcpServers } from '@allmenning/mcp'
import { builtInSources } from '@allmenning/sources'
import { startFakeAvinor, type FakeAvinor } from '@allmenning/sources/avinor/testing'
import { startFakeBrreg, type FakeBrreg } from '@allmenning/sources/firmafakta/testing'
import { startFakeStatnett } from '@allmenning/sources/statnett/testing'
import type { FakeUpstream } from '@allmenning/core/testing'

const nasty = fc.constantFrom(
  '',
  '__proto__',
  'constructor',
  '\u0000',
  '\uD800',
  '%E0%A4%A',
  '../..',
  'æøå',
  'NO1',
  'OSL',
  '976030788',
  'a'.repeat(300),
)
const value = fc.oneof(
  nasty,
  fc.string({ maxLength: 12 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 2 }),
)
const argumentName = fc.oneof(
  fc.constantFrom(
    'limit',
    'offset',
    'area',
    'airport_id',
    'direction',
    'org_nr',
    'company_name',
    'q',
    'mode',
    'view',
    'source',
    'operation',
    'parameters',
  ),
  nasty,
  fc.string({ maxLength: 8 }),
)
const args = fc.oneof(fc.dictionary(argumentName, value, { maxKeys: 5 }), value)
const id = fc.oneof(
  fc.integer(),
  fc.string({ maxLength: 6 }),
  fc.constant(null),
  fc.constant({}),
  fc.constant(undefined),
)
const otherMethod = fc.constantFrom(
  'initialize',
  'ping',
  'tools/list',
  'notifications/initialized',
  'resources/list',
  '',
  'x',
)
const version = fc.oneof(fc.constantFrom('2025-11-25', '2025-03-26', '1999-01-01'), value)

/** Each endpoint with the tools it has, so most calls name a real tool and reach its arguments. */
const endpoints: [string, string[]][] = [
  ['/mcp', ['search_sources', 'list_sources', 'describe_source', 'describe_operation', 'get_data']],
  ['/statnett/mcp', ['get_physical_flow', 'get_power_situation', 'get_production_consumption']],
  ['/avinor/mcp', ['get_flights', 'lookup_airport', 'lookup_airline']],
  [
    '/firmafakta/mcp',
    ['selskapsdetaljer', 'organisasjonsnummer_for_selskap', 'roller_i_enhet', 'underenheter_for_selskap'],
  ],
  ['/nope/mcp', ['x']],
]

function messageFor(tools: string[]) {
  const call = fc.record(
    {
      jsonrpc: fc.constantFrom('2.0', '2.0', '2.0', '1.0'),
      id,
      method: fc.constant('tools/call'),
      params: fc.oneof(
        fc.record({ name: fc.oneof(fc.constantFrom(...tools), nasty), arguments: args }, { requiredKeys: ['name'] }),
        value,
      ),
    },
    { requiredKeys: ['jsonrpc', 'method'] },
  )
  const other = fc.record(
    {
      jsonrpc: fc.constantFrom('2.0', '1.0'),
      id,
      method: otherMethod,
      params: fc.oneof(fc.record({ protocolVersion: version }), value),
    },
    { requiredKeys: ['jsonrpc', 'method'] },
  )
  return fc.oneof(
    { weight: 6, arbitrary: call },
    { weight: 2, arbitrary: other },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  )
}

const post = fc.constantFrom(...endpoints).chain(([path, tools]) => {
  const message = messageFor(tools)
  const body = fc.oneof(
    { weight: 5, arbitrary: message.map((m) => JSON.stringify(m)) },
    { weight: 2, arbitrary: fc.array(message, { maxLength: 4 }).map((m) => JSON.stringify(m)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  )
  return fc.tuple(fc.constant(path), body)
})
const headers = fc.record(
  {
    'content-type': fc.constantFrom(
      'application/json',
      'application/json',
      'application/json; charset=utf-8',
      'text/plain',
      '',
    ),
    accept: fc.constantFrom(
      'application/json, text/event-stream',
      'application/json, text/event-stream',
      'application/json',
      'text/event-stream',
      '*/*',
      'text/html',
    ),
    'mcp-protocol-version': fc.constantFrom(
      '2025-11-25',
      '2025-06-18',
      '2025-03-26',
      '2025-03-26',
      '2024-11-05',
      'garbage',
    ),
    origin: fc.oneof(
      fc.constantFrom(
        'http://localhost:3000',
        'http://evil.example',
        'null',
        'http://[::1]:3000',
        'https://data.example.no',
      ),
      fc.string({ maxLength: 20 }),
    ),
    host: fc.oneof(
      fc.constantFrom('localhost:3000', 'evil.example', '[::1]:3000', '[::1', 'data.example.no:443'),
      fc.string({ maxLength: 20 }),
    ),
  },
  { requiredKeys: [] },
)

let gateway: Gateway
const internal: unknown[] = []
let fakes: [FakeUpstream, FakeAvinor, FakeBrreg]

beforeAll(async () => {
  fakes = [await startFakeStatnett(), await startFakeAvinor(), await startFakeBrreg()]
  gateway = createGateway({
    sources: builtInSources({
      ALLMENNING_UPSTREAM_STATNETT: fakes[0].baseUrl,
      ALLMENNING_UPSTREAM_AVINOR: fakes[1].baseUrl,
      ALLMENNING_UPSTREAM_BRREG: fakes[2].baseUrl,
    }),
    extensions: [mcpServers()],
    onError: (error, kind) => kind === 'internal' && internal.push(error),
  })
})
afterAll(() => Promise.all(fakes.map((f) => f.close())))

describe('whatever a client posts to an MCP endpoint', () => {
  it('is answered with a JSON-RPC body or an empty 202, never a 500 or a stack trace', async () => {
    await fc.assert(
      fc.asyncProperty(post, headers, async ([p, b], h) => {
        const res = await gateway.handle({
          method: 'POST',
          path: p,
          query: '',
          headers: h,
          readBody: () => Promise.resolve(b),
        })
        expect([200, 202, 400, 403, 404, 406, 415]).toContain(res.status)
        expect(res.body ?? '').not.toMatch(/\n\s+at /)
        if (res.status === 202) {
          expect(res.body).toBeNull()
          return
        }
        const type = res.headers['content-type']
        const text =
          type === 'text/event-stream; charset=utf-8'
            ? res.body!.replace(/^event: message\ndata: /, '').trimEnd()
            : res.body!
        const parsed = JSON.parse(text)
        if (p === '/nope/mcp') {
          expect(parsed.error.code).toBe('source_not_found')
          return
        }
        const answers = Array.isArray(parsed) ? parsed : [parsed]
        for (const answer of answers) {
          expect(answer.jsonrpc).toBe('2.0')
          expect('result' in answer || 'error' in answer).toBe(true)
          if (answer.result?.isError === true) expect(answer.result.structuredContent.error.status).toBeLessThan(500)
        }
        expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.body!)))
      }),
      { numRuns: 1500 },
    )
    expect(internal).toEqual([])
  })
})
