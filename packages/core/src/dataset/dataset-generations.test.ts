import Keyv from 'keyv'
import * as v from 'valibot'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createGateway, GatewayError, type GatewayResponse } from '@allmenning/core'
import {
  defineDataset,
  defineOperation,
  defineSource,
  defineUpstream,
  UpstreamError,
  type DatasetReader,
} from '@allmenning/core/source'
import type { DatasetStore } from '@allmenning/core/extension'

const registry = defineDataset({
  id: 'registry',
  title: 'Example registry',
  description: 'Members by number.',
  publisher: 'Example Agency',
  license: 'NLOD 2.0',
  attribution: 'Contains data from Example Agency under NLOD 2.0.',
  origin: { kind: 'order', page: 'https://example.no/registry', instructions: 'Order it by e-mail.' },
  changes: 'yearly',
  tables: [{ name: 'members', columns: { nr: 'text', name: 'text' }, indexes: [['nr']] }],
  files: [
    {
      name: 'members.csv',
      content: {
        format: { type: 'delimited', delimiter: ';', quoting: 'none' },
        rows: () => (cells) => ({ table: 'members', row: { nr: cells[0] ?? null, name: cells[1] ?? null } }),
      },
    },
  ],
})

type Member = { nr: string; name: string }

/**
 * A store whose loaded generation is switched by the test, as an import in another process
 * switches the SQLite store's; it counts how often the gateway asks it.
 */
function switchingStore(first: Member[]) {
  let generation = 0
  let members = first
  let reader = readerOf(members, generation)
  function readerOf(rows: Member[], n: number): DatasetReader {
    return {
      version: {
        id: 'registry',
        publishedAt: `${2020 + n}-12-31`,
        loadedAt: `2026-11-2${n}T03:00:00.000Z`,
        rows: rows.length,
        files: [{ name: 'members.csv', url: null }],
      },
      async select<R>(_table: string, query: { where?: Record<string, unknown> } = {}) {
        return rows.filter((row) => row.nr === query.where?.nr) as R[]
      },
      async count() {
        return rows.length
      },
      async search() {
        throw new TypeError('no full-text index')
      },
    }
  }
  const asked = { count: 0 }
  const store: DatasetStore = {
    reader(dataset) {
      asked.count++
      return dataset === registry ? reader : undefined
    },
  }
  return {
    store,
    asked,
    load(next: Member[]) {
      generation++
      members = next
      reader = readerOf(members, generation)
    },
  }
}

const api = defineUpstream({
  id: 'example_api',
  name: 'Example API',
  baseUrl: 'http://127.0.0.1:9',
  publisher: 'Example Agency',
})
const upstream = { failing: false }

const member = defineOperation({
  name: 'member',
  description: 'One member, from the registry.',
  parameters: { nr: v.string() },
  output: v.object({ nr: v.string(), name: v.string() }),
  datasets: [registry],
  async run(params, ctx) {
    const [found] = await ctx.dataset(registry).select<Member>('members', { where: { nr: params.nr } })
    if (!found) throw new GatewayError(404, 'entity_not_found', `No member ${params.nr}`)
    return { data: found }
  },
})

const memberWithStatus = defineOperation({
  name: 'member_with_status',
  description: 'One member from the registry, with its status from the live API.',
  parameters: { nr: v.string() },
  output: v.object({ nr: v.string(), name: v.string() }),
  async run(params, ctx) {
    const [found] = await ctx.dataset(registry).select<Member>('members', { where: { nr: params.nr } })
    if (upstream.failing) throw new UpstreamError(api, 'unavailable', 'refused the connection')
    return { data: found ?? { nr: params.nr, name: '?' } }
  },
})

const portsNear = defineOperation({
  name: 'ports_near',
  description: 'The members registered near a point, as its ports.',
  parameters: { lat: v.number(), lon: v.number() },
  output: v.array(v.object({ nr: v.string(), name: v.string() })),
  datasets: [registry],
  placeField: { name: 'ports', section: 'maritime', description: 'The members registered near a point.' },
  async run(_params, ctx) {
    return { data: await ctx.dataset(registry).select<Member>('members', { where: { nr: '1' } }) }
  },
})

let liveCalls = 0
const live = defineOperation({
  name: 'live',
  description: 'Something from the live API alone.',
  parameters: {},
  output: v.number(),
  datasets: [],
  run: async () => ({ data: ++liveCalls }),
})

const source = defineSource({
  id: 'example',
  name: 'Example',
  description: 'An example source on a dataset.',
  documentation: 'https://example.no/',
  topic: 'business',
  keywords: ['members'],
  contentLanguages: ['no'],
  cacheTtlSeconds: 3600,
  upstreams: [api],
  datasets: [registry],
  entityTypes: { member: { operation: 'member', parameter: 'nr' } },
  entitySearch: {
    async search(query, ctx) {
      const found = (await ctx.call('member', { nr: query })) as Member
      return { hits: [{ type: 'member', id: found.nr, name: found.name }] }
    },
  },
  operations: [member, memberWithStatus, portsNear, live],
})

const year2024 = [{ nr: '1', name: 'Ada' }]
const year2025 = [
  { nr: '1', name: 'Ada Lovelace' },
  { nr: '2', name: 'Brit' },
]

function gatewayOn(store: DatasetStore, cache = new Keyv()) {
  return createGateway({ sources: [source], datasets: store, cache, onError: () => {} })
}

async function get(
  gateway: ReturnType<typeof createGateway>,
  path: string,
  query: string,
  headers: Record<string, string> = {},
) {
  const res: GatewayResponse = await gateway.handle({ method: 'GET', path: `/api/v1${path}`, query, headers })
  return { status: res.status, headers: res.headers, json: res.body ? JSON.parse(res.body) : null }
}

afterEach(() => {
  vi.restoreAllMocks()
  upstream.failing = false
})

describe('answers read from a dataset, once a new generation is loaded', () => {
  it('come from the new generation at once, though the old answer is still fresh', async () => {
    const data = switchingStore(year2024)
    const gateway = gatewayOn(data.store)
    expect((await get(gateway, '/kilder/example/member', 'nr=1')).json.data.name).toBe('Ada')
    const cached = await get(gateway, '/kilder/example/member', 'nr=1')
    expect(cached.headers['cache-status']).toMatch(/; hit;/)
    data.load(year2025)
    const after = await get(gateway, '/kilder/example/member', 'nr=1')
    expect(after.json.data.name).toBe('Ada Lovelace')
    expect(after.json._meta.datasets[0].loaded_at).toBe('2026-11-21T03:00:00.000Z')
    expect(after.headers['cache-status']).toMatch(/fwd=miss/)
    // And the new answer is cached in its turn.
    expect((await get(gateway, '/kilder/example/member', 'nr=1')).headers['cache-status']).toMatch(/; hit;/)
  })

  it('do not answer 304 to the ETag of the old generation', async () => {
    const data = switchingStore(year2024)
    const gateway = gatewayOn(data.store)
    const before = await get(gateway, '/kilder/example/member', 'nr=1')
    expect(
      (await get(gateway, '/kilder/example/member', 'nr=1', { 'if-none-match': before.headers.etag! })).status,
    ).toBe(304)
    data.load(year2025)
    const after = await get(gateway, '/kilder/example/member', 'nr=1', { 'if-none-match': before.headers.etag! })
    expect(after.status).toBe(200)
    expect(after.json.data.name).toBe('Ada Lovelace')
  })

  it('are no longer a remembered 404 when the new generation has the entity', async () => {
    const data = switchingStore(year2024)
    const gateway = gatewayOn(data.store)
    expect((await get(gateway, '/kilder/example/member', 'nr=2')).status).toBe(404)
    expect((await get(gateway, '/kilder/example/member', 'nr=2')).headers['cache-status']).toMatch(/; hit;/)
    data.load(year2025)
    const after = await get(gateway, '/kilder/example/member', 'nr=2')
    expect(after.status).toBe(200)
    expect(after.json.data).toEqual({ nr: '2', name: 'Brit' })
  })

  it('are not served stale from the old generation when the upstream fails after the switch', async () => {
    const data = switchingStore(year2024)
    const gateway = gatewayOn(data.store)
    expect((await get(gateway, '/kilder/example/member_with_status', 'nr=1')).json.data.name).toBe('Ada')
    // Two hours on, the answer is past its hour of freshness but kept to be served stale.
    const now = Date.now()
    vi.spyOn(Date, 'now').mockImplementation(() => now + 2 * 3600_000)
    upstream.failing = true
    const stale = await get(gateway, '/kilder/example/member_with_status', 'nr=1')
    expect(stale.json._meta.stale).toBe(true)
    data.load(year2025)
    const after = await get(gateway, '/kilder/example/member_with_status', 'nr=1')
    expect(after.status).toBe(502)
    expect(after.json.error.code).toBe('upstream_unavailable')
  })

  it('are not taken from a cache another instance filled before it saw the switch', async () => {
    const shared = new Keyv()
    const early = switchingStore(year2024)
    expect((await get(gatewayOn(early.store, shared), '/kilder/example/member', 'nr=1')).json.data.name).toBe('Ada')
    const late = switchingStore(year2024)
    late.load(year2025)
    const res = await get(gatewayOn(late.store, shared), '/kilder/example/member', 'nr=1')
    expect(res.json.data.name).toBe('Ada Lovelace')
    // The same generation in both instances shares the cached answer.
    const again = await get(gatewayOn(early.store, shared), '/kilder/example/member', 'nr=1')
    expect(again.headers['cache-status']).toMatch(/; hit;/)
  })

  it('reach a cached search too: its hits come from the new generation', async () => {
    const data = switchingStore(year2024)
    const gateway = gatewayOn(data.store)
    const first = await get(gateway, '/sok/alle', 'q=1&mode=entities')
    expect(first.json.results[0]).toMatchObject({ type: 'member', id: '1', name: 'Ada' })
    expect((await get(gateway, '/sok/alle', 'q=1&mode=entities')).headers['cache-status']).toMatch(/; hit;/)
    data.load(year2025)
    const after = await get(gateway, '/sok/alle', 'q=1&mode=entities')
    expect(after.json.results[0]).toMatchObject({ type: 'member', id: '1', name: 'Ada Lovelace' })
  })

  it('reach a cached place bundle too', async () => {
    const data = switchingStore(year2024)
    const gateway = gatewayOn(data.store)
    const first = await get(gateway, '/steder/59.91/10.75', 'fields=ports')
    expect(first.json.fields.ports.data).toEqual([{ nr: '1', name: 'Ada' }])
    expect((await get(gateway, '/steder/59.91/10.75', 'fields=ports')).headers['cache-status']).toMatch(/; hit;/)
    data.load(year2025)
    const after = await get(gateway, '/steder/59.91/10.75', 'fields=ports')
    expect(after.json.fields.ports.data).toEqual([{ nr: '1', name: 'Ada Lovelace' }])
  })

  it('cost an operation that reads no dataset nothing: its hits never ask the store', async () => {
    const data = switchingStore(year2024)
    const gateway = gatewayOn(data.store)
    const first = await get(gateway, '/kilder/example/live', '')
    const asked = data.asked.count
    data.load(year2025)
    const again = await get(gateway, '/kilder/example/live', '')
    expect(again.json.data).toBe(first.json.data)
    expect(again.headers['cache-status']).toMatch(/; hit;/)
    expect(data.asked.count).toBe(asked)
  })
})

describe("an operation's datasets", () => {
  it("must be some of the source's", () => {
    const other = defineDataset({ ...registry, id: 'other' })
    const reading = defineOperation({ ...member, name: 'other_member', datasets: [other] })
    expect(() => createGateway({ sources: [defineSource({ ...source, operations: [reading] })] })).toThrow(
      'example.other_member: reads dataset other, which the source does not declare in its datasets',
    )
  })

  it('bound what it may read: reading another is a programming error, never shown', async () => {
    const sneaky = defineOperation({ ...member, name: 'sneaky', datasets: [] })
    const errors: unknown[] = []
    const gateway = createGateway({
      sources: [defineSource({ ...source, entitySearch: undefined, entityTypes: {}, operations: [sneaky] })],
      datasets: switchingStore(year2024).store,
      onError: (e) => errors.push(e),
    })
    const res = await gateway.handle({
      method: 'GET',
      path: '/api/v1/kilder/example/sneaky',
      query: 'nr=1',
      headers: {},
    })
    expect(res.status).toBe(500)
    expect(String(errors[0])).toContain('example.sneaky reads dataset registry without declaring it')
  })
})
