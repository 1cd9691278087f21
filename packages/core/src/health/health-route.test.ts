import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '../index.js'
import { defineOperation, defineSource, defineUpstream, upstreamNotConfigured } from '../source.js'
import { startFakeUpstream, type FakeUpstream } from '../testing/index.js'

const shelf = defineUpstream({
  id: 'shelf',
  name: 'Book shelf',
  baseUrl: 'https://shelf.example.no/api',
  publisher: 'Shelf AS',
})
const vault = defineUpstream({
  id: 'vault',
  name: 'Rare books vault',
  baseUrl: 'https://vault.example.no',
  publisher: 'Vault AS',
})

const listBooks = defineOperation({
  name: 'list_books',
  description: 'Books on the shelf.',
  parameters: { shelf: v.optional(v.pipe(v.string(), v.minLength(2)), 'main') },
  output: v.array(v.string()),
  async run(params, ctx) {
    return { data: (await ctx.upstream(shelf).getJson<string[]>(`/books/${params.shelf}`)).body }
  },
})
const rareBooks = (key: string | undefined) =>
  defineOperation({
    name: 'rare_books',
    description: 'Books in the vault; needs a key.',
    parameters: {},
    output: v.array(v.string()),
    async run(_params, ctx) {
      if (!key) throw upstreamNotConfigured(vault, 'LIBRARY_VAULT_KEY')
      return { data: (await ctx.upstream(vault).getJson<string[]>('/rare')).body }
    },
  })

const library = (key?: string) =>
  defineSource({
    id: 'library',
    name: 'Library',
    description: 'Books.',
    documentation: 'https://library.example.no/docs',
    topic: 'culture',
    keywords: ['books'],
    contentLanguages: ['no'],
    cacheTtlSeconds: 60,
    upstreams: [shelf, vault],
    notConfigured: key ? [] : [{ configure: 'LIBRARY_VAULT_KEY', operations: ['rare_books'] }],
    operations: [listBooks, rareBooks(key)],
  })
const archive = defineSource({
  id: 'archive',
  name: 'Archive',
  description: 'Needs a key for everything.',
  documentation: 'https://archive.example.no',
  topic: 'culture',
  keywords: ['archive'],
  contentLanguages: ['no'],
  cacheTtlSeconds: 3600,
  upstreams: [vault],
  notConfigured: [{ configure: 'ARCHIVE_KEY' }],
  operations: [defineOperation({ ...rareBooks(undefined), name: 'boxes' })],
})

let fake: FakeUpstream
beforeAll(async () => {
  fake = await startFakeUpstream({
    '/books/main': () => ({ headers: { 'content-type': 'application/json' }, body: '["Hamsun","Undset"]' }),
    '/books/{name}': () => ({ status: 503, headers: { 'content-type': 'text/plain' }, body: 'down for maintenance' }),
  })
})
afterAll(() => fake.close())

const gatewayFor = (breakAfterFailures = 5) =>
  createGateway({
    sources: [library(), archive],
    upstreams: { shelf: { baseUrl: fake.baseUrl }, vault: { baseUrl: fake.baseUrl } },
    upstream: { breakAfterFailures, retryConnect: false },
    onError: () => {},
  })

async function get(gateway: ReturnType<typeof gatewayFor>, path: string, query = '') {
  const res = await gateway.handle({ method: 'GET', path, query, headers: {} })
  return { status: res.status, headers: res.headers, json: JSON.parse(res.body ?? 'null') }
}
const sourceOf = (json: { sources: { id: string }[] }, id: string) =>
  json.sources.find((s) => s.id === id) as Record<string, unknown>

describe('/api/v1/health', () => {
  it('lists every source, not yet called as ok, one lacking every setting as not_configured, and is never cached', async () => {
    const gateway = gatewayFor()
    const { status, headers, json } = await get(gateway, '/api/v1/health')
    expect(status).toBe(200)
    expect(headers['cache-control']).toBe('no-store')
    expect(fake.hits()).toBe(0)
    expect(json.status).toBe('degraded')
    expect(json.counts).toEqual({ ok: 0, degraded: 1, failing: 0, not_configured: 1 })
    expect(sourceOf(json, 'library')).toMatchObject({
      state: 'degraded',
      last_ok_at: null,
      last_error: null,
      failures_in_a_row: 0,
      breakers: [
        { upstream: 'shelf', state: 'closed' },
        { upstream: 'vault', state: 'closed' },
      ],
      cache_ttl_seconds: 60,
      not_configured: [{ configure: 'LIBRARY_VAULT_KEY', operations: ['rare_books'] }],
      datasets: [],
    })
    expect(sourceOf(json, 'archive')).toMatchObject({
      state: 'not_configured',
      not_configured: [{ configure: 'ARCHIVE_KEY', operations: ['boxes'] }],
    })
  })

  it('records a good answer, then failures in a row up to failing, and an open breaker', async () => {
    const gateway = gatewayFor(2)
    await get(gateway, '/api/v1/kilder/library/list_books')
    let { json } = await get(gateway, '/api/v1/health', 'source=library')
    expect(json.sources).toHaveLength(1)
    const lastOk = sourceOf(json, 'library').last_ok_at as string
    expect(Date.now() - Date.parse(lastOk)).toBeLessThan(5000)
    // A bad request says nothing of the source's health.
    expect((await get(gateway, '/api/v1/kilder/library/list_books', 'shelf=x')).status).toBe(400)
    expect(sourceOf((await get(gateway, '/api/v1/health')).json, 'library').failures_in_a_row).toBe(0)
    // Neither does a call of the operation that lacks its key.
    expect((await get(gateway, '/api/v1/kilder/library/rare_books')).status).toBe(502)
    expect(sourceOf((await get(gateway, '/api/v1/health')).json, 'library').failures_in_a_row).toBe(0)

    expect((await get(gateway, '/api/v1/kilder/library/list_books', 'shelf=attic')).status).toBe(502)
    json = (await get(gateway, '/api/v1/health')).json
    expect(sourceOf(json, 'library')).toMatchObject({
      state: 'degraded',
      last_ok_at: lastOk,
      failures_in_a_row: 1,
      last_error: { operation: 'list_books', code: 'upstream_error', upstream: 'shelf' },
    })
    expect((sourceOf(json, 'library').last_error as { message: string }).message).toContain('503')
    await get(gateway, '/api/v1/kilder/library/list_books', 'shelf=cellar')
    json = (await get(gateway, '/api/v1/health')).json
    expect(sourceOf(json, 'library')).toMatchObject({
      state: 'failing',
      breakers: [
        { upstream: 'shelf', state: 'open' },
        { upstream: 'vault', state: 'closed' },
      ],
    })
    expect(json.status).toBe('failing')
  })

  it('refuses an unknown source with a 400 naming the parameter', async () => {
    const { status, json } = await get(gatewayFor(), '/api/v1/health', 'source=nope')
    expect(status).toBe(400)
    expect(json.error.details[0].parameter).toBe('source')
  })
})

describe('discovery of operations the deployment has not configured', () => {
  it('marks them in the source list, the descriptor and the operation schema', async () => {
    const gateway = gatewayFor()
    const list = (await get(gateway, '/api/v1/kilder')).json
    const library = list.sources.find((s: { id: string }) => s.id === 'library')
    expect(library.configuration).toBe('partial')
    expect(library.operations).toEqual([
      { name: 'list_books', operation_descriptor_url: '/api/v1/kilder/library/list_books/schema' },
      {
        name: 'rare_books',
        operation_descriptor_url: '/api/v1/kilder/library/rare_books/schema',
        configured: false,
        configure: ['LIBRARY_VAULT_KEY'],
      },
    ])
    expect(list.sources.find((s: { id: string }) => s.id === 'archive').configuration).toBe('missing')
    const full = (await get(gateway, '/api/v1/kilder/library')).json
    expect(full.operations[1]).toMatchObject({
      name: 'rare_books',
      configured: false,
      configure: ['LIBRARY_VAULT_KEY'],
    })
    expect(full.operations[0].configured).toBeUndefined()
    const schema = (await get(gateway, '/api/v1/kilder/library/rare_books/schema')).json
    expect(schema).toMatchObject({ configured: false, configure: ['LIBRARY_VAULT_KEY'] })
  })

  it('refuses a declaration naming an operation the source does not define', () => {
    expect(() => defineSource({ ...library(), notConfigured: [{ configure: 'X', operations: ['no_such'] }] })).toThrow(
      /no_such/,
    )
  })
})
