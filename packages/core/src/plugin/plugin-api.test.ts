import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, upstreamOverridesFromEnvironment } from '../index.js'
import { defineOperation, defineSource, defineUpstream, type SourceDefinition } from '../source.js'
import { startFakeUpstream, type FakeUpstream } from '../testing/index.js'

const shelf = defineUpstream({
  id: 'shelf',
  name: 'Book shelf',
  baseUrl: 'https://shelf.example.no/api',
  publisher: 'Shelf AS',
  license: 'CC BY 4.0',
})
const covers = defineUpstream({
  id: 'covers',
  name: 'Cover art',
  baseUrl: 'https://covers.example.no',
  publisher: 'Covers SA',
})

const book = v.object({ isbn: v.string(), title: v.string() })

const listBooks = defineOperation({
  name: 'list_books',
  description: 'Books on the shelf.',
  parameters: {},
  output: v.object({ books: v.array(book), shelf: v.string() }),
  list: 'books',
  async run(_params, ctx) {
    const res = await ctx.upstream(shelf).getJson<{ isbn: string; title: string }[]>('/books')
    return { data: { books: res.body, shelf: 'main' } }
  },
  entities: (data) => data.books.map((b) => ({ type: 'book', id: b.isbn, name: b.title })),
})

const getBook = defineOperation({
  name: 'get_book',
  description: 'One book, with its cover.',
  parameters: { isbn: v.pipe(v.string(), v.minLength(3)) },
  output: v.object({ isbn: v.string(), title: v.string(), cover: v.string() }),
  async run(params, ctx) {
    const books = await ctx.upstream(shelf).getJson<{ isbn: string; title: string }[]>('/books')
    const found = books.body.find((b) => b.isbn === params.isbn) ?? { isbn: params.isbn, title: '?' }
    const cover = await ctx.upstream(covers).getJson<{ url: string }>(`/covers/${params.isbn}`)
    return { data: { ...found, cover: cover.body.url } }
  },
})

const strayUpstream = defineUpstream({
  id: 'stray',
  name: 'Not declared',
  baseUrl: 'https://stray.example.no',
  publisher: 'Nobody',
})
const callsUndeclared = defineOperation({
  name: 'calls_undeclared',
  description: 'Reaches an upstream its source does not declare.',
  parameters: {},
  output: v.array(v.string()),
  run: async (_params, ctx) => ({ data: [(await ctx.upstream(strayUpstream).getJson<string>('/x')).body] }),
})

const library = (extra: Partial<SourceDefinition> = {}): SourceDefinition =>
  defineSource({
    id: 'library',
    name: 'Library',
    description: 'Books.',
    documentation: 'https://library.example.no/docs',
    topic: 'culture',
    keywords: ['books'],
    contentLanguages: ['no'],
    cacheTtlSeconds: 60,
    upstreams: [shelf, covers],
    entityTypes: { book: { operation: 'get_book', parameter: 'isbn' } },
    operations: [listBooks, getBook, callsUndeclared],
    ...extra,
  })

let fake: FakeUpstream
const books = Array.from({ length: 7 }, (_, i) => ({ isbn: `978-${i}`, title: `Book ${i}` }))

beforeAll(async () => {
  fake = await startFakeUpstream({
    '/books': () => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(books) }),
    '/covers/978-2': () => ({
      headers: { 'content-type': 'application/json' },
      body: '{"url":"https://covers.example.no/978-2.jpg"}',
    }),
  })
})
afterAll(() => fake.close())

const gatewayFor = (source = library()) =>
  createGateway({
    sources: [source],
    upstreams: { shelf: { baseUrl: fake.baseUrl }, covers: { baseUrl: fake.baseUrl } },
    onError: () => {},
  })

async function get(path: string, query = '', gateway = gatewayFor()) {
  const res = await gateway.handle({ method: 'GET', path, query, headers: {} })
  return { status: res.status, json: JSON.parse(res.body ?? 'null') }
}

describe('an operation whose data is an object holding a named list', () => {
  it('pages the named list and gives has_more_results inside data and in _meta.pagination', async () => {
    const { status, json } = await get('/api/v1/kilder/library/list_books', 'limit=3&offset=3')
    expect(status).toBe(200)
    expect(json.data).toEqual({ books: books.slice(3, 6), shelf: 'main', has_more_results: true })
    expect(json._meta.pagination).toEqual({
      limit: 3,
      offset: 3,
      returned: 3,
      has_more_results: true,
      next_offset: 6,
      total: 7,
    })
    expect(json._meta.capped).toBeUndefined()
    const last = await get('/api/v1/kilder/library/list_books', 'limit=3&offset=6')
    expect(last.json.data.has_more_results).toBe(false)
    expect(last.json._meta.pagination.next_offset).toBeNull()
    expect(last.json.entities).toEqual([
      {
        type: 'book',
        id: '978-6',
        name: 'Book 6',
        source: 'library',
        _links: { self: '/api/v1/kilder/library/get_book?isbn=978-6' },
      },
    ])
  })

  it('says in _meta.capped when the upstream gave at most so many items, with the limit asked for', async () => {
    const nearest = defineOperation({
      name: 'nearest_books',
      description: 'The shelf answers the three nearest books, whatever is asked.',
      parameters: {},
      output: v.object({ books: v.array(book) }),
      list: 'books',
      run: async (_params, ctx) => {
        const res = await ctx.upstream(shelf).getJson<{ isbn: string; title: string }[]>('/books')
        return {
          data: { books: res.body.slice(0, 3) },
          capped: { cap: 3, reason: 'The shelf answers the 3 nearest books.' },
        }
      },
    })
    const { json } = await get(
      '/api/v1/kilder/library/nearest_books',
      'limit=10',
      gatewayFor(library({ operations: [nearest, getBook] })),
    )
    expect(json.data.books).toHaveLength(3)
    expect(json._meta.capped).toEqual({ cap: 3, reason: 'The shelf answers the 3 nearest books.', requested_limit: 10 })
    expect(json._meta.pagination).toMatchObject({ returned: 3, has_more_results: false, next_offset: null })
  })

  it('describes has_more_results and the list in descriptors, /schema and OpenAPI', async () => {
    const schema = await get('/api/v1/kilder/library/list_books/schema')
    expect(schema.json.output_fields).toEqual(['books', 'books[].isbn', 'books[].title', 'shelf', 'has_more_results'])
    expect(schema.json.optional_parameters).toEqual(['limit', 'offset'])
    const openapi = await get('/api/v1/openapi.json')
    const data =
      openapi.json.paths['/api/v1/kilder/library/list_books'].get.responses['200'].content['application/json'].schema
        .properties.data
    expect(data.properties.has_more_results).toMatchObject({ type: 'boolean' })
    expect(data.required).toContain('has_more_results')
  })

  it('refuses at start-up a list that names no array field, or one that declares has_more_results itself', () => {
    const bad = (output: v.GenericSchema, list: string) =>
      library({ operations: [defineOperation({ ...listBooks, name: 'bad', output, list } as never), getBook] })
    expect(() => gatewayFor(bad(v.object({ books: v.string() }), 'books'))).toThrow(
      /list "books" must name an array field/,
    )
    expect(() => gatewayFor(bad(v.array(book), 'books'))).toThrow(/must name an array field/)
    expect(() => gatewayFor(bad(v.object({ books: v.array(book), has_more_results: v.boolean() }), 'books'))).toThrow(
      /adds has_more_results/,
    )
  })
})

describe('an operation whose data is not a list', () => {
  it('lists no limit or offset, echoes none, but accepts and checks them as spec 4.3 lets every operation take them', async () => {
    const schema = await get('/api/v1/kilder/library/get_book/schema')
    expect(schema.json.signature).toBe('get_book(isbn: string, required)')
    const ok = await get('/api/v1/kilder/library/get_book', 'isbn=978-2&limit=5&offset=1')
    expect(ok.status).toBe(200)
    expect(ok.json.parameters).toEqual({ isbn: '978-2' })
    expect(ok.json._meta.pagination).toBeUndefined()
    const bad = await get('/api/v1/kilder/library/get_book', 'isbn=978-2&limit=0')
    expect(bad.status).toBe(400)
    expect(bad.json.error.details).toEqual([{ parameter: 'limit', problem: 'must be at least 1', rule: 'min_value' }])
  })
})

describe('typed upstreams and provenance', () => {
  it('records every upstream an answer used, with publisher, licence and calls', async () => {
    const { json } = await get('/api/v1/kilder/library/get_book', 'isbn=978-2')
    expect(json._provenance.data).toEqual({
      source: 'Shelf AS; Covers SA',
      source_api: `${fake.baseUrl}/books`,
      description: 'Library; licence CC BY 4.0',
    })
    expect(json._provenance.upstreams).toEqual([
      {
        id: 'shelf',
        name: 'Book shelf',
        publisher: 'Shelf AS',
        license: 'CC BY 4.0',
        source_api: `${fake.baseUrl}/books`,
        calls: 1,
      },
      { id: 'covers', name: 'Cover art', publisher: 'Covers SA', source_api: `${fake.baseUrl}/covers/978-2`, calls: 1 },
    ])
  })

  it('answers a 500 without details when an operation reaches an upstream its source does not declare', async () => {
    const { status, json } = await get('/api/v1/kilder/library/calls_undeclared')
    expect(status).toBe(500)
    expect(json.error.message).not.toMatch(/stray/)
  })

  it('refuses an override for an upstream no source uses, and two upstreams with one id', () => {
    expect(() =>
      createGateway({ sources: [library()], upstreams: { shelff: { baseUrl: 'http://127.0.0.1:1' } } }),
    ).toThrow(/names shelff, which no source uses; known upstreams: shelf, covers/)
    const twin = defineUpstream({ ...shelf, baseUrl: 'https://elsewhere.example.no' })
    expect(() => createGateway({ sources: [library(), library({ id: 'other', upstreams: [twin, covers] })] })).toThrow(
      /Two upstreams have the id "shelf"/,
    )
  })

  it('reads overrides from ALLMENNING_UPSTREAM_<ID> and <ID>_TIMEOUT_MS, and refuses a timeout that is not a number', () => {
    const env = {
      ALLMENNING_UPSTREAM_SHELF: ' http://127.0.0.1:9/api ',
      ALLMENNING_UPSTREAM_COVERS_TIMEOUT_MS: '2500',
      ALLMENNING_UPSTREAM_OTHER: 'x',
    }
    expect(upstreamOverridesFromEnvironment(env, ['shelf', 'covers', 'absent'])).toEqual({
      shelf: { baseUrl: 'http://127.0.0.1:9/api' },
      covers: { timeoutMs: 2500 },
    })
    expect(() => upstreamOverridesFromEnvironment({ ALLMENNING_UPSTREAM_SHELF_TIMEOUT_MS: '2s' }, ['shelf'])).toThrow(
      /must be a positive whole number/,
    )
  })

  it('refuses an upstream id or base URL that cannot work', () => {
    expect(() => defineUpstream({ ...shelf, id: 'Shelf' })).toThrow(/lower-case/)
    expect(() => defineUpstream({ ...shelf, baseUrl: 'shelf.example.no' })).toThrow(/not an absolute URL/)
  })
})

describe('entity types', () => {
  it('are checked against the operations they link to at start-up', () => {
    expect(() => gatewayFor(library({ entityTypes: { book: { operation: 'get_books', parameter: 'isbn' } } }))).toThrow(
      /entity type book links to operation get_books, which the source does not have/,
    )
    expect(() => gatewayFor(library({ entityTypes: { book: { operation: 'get_book', parameter: 'id' } } }))).toThrow(
      /links to get_book by "id", which is not one of its parameters/,
    )
  })

  it('must be declared: an entity of an undeclared type is an internal error, not a broken link', async () => {
    const { status } = await get('/api/v1/kilder/library/list_books', '', gatewayFor(library({ entityTypes: {} })))
    expect(status).toBe(500)
  })
})

describe('place fields', () => {
  it('are refused at start-up on an operation without lat and lon, or with other required parameters', () => {
    const withField = (op: object) =>
      library({ operations: [listBooks, getBook, defineOperation({ ...getBook, name: 'near', ...op } as never)] })
    const pois = { name: 'pois', section: 'poi', description: 'Points of interest near the point.' }
    expect(() => gatewayFor(withField({ placeField: pois }))).toThrow(
      /fills the place field pois but has no lat or lon parameter/,
    )
    expect(() =>
      gatewayFor(withField({ placeField: pois, parameters: { lat: v.number(), lon: v.number(), isbn: v.string() } })),
    ).toThrow(/only lat and lon may be required \(not isbn\)/)
  })
})

describe("compileSources: 'on-first-use'", () => {
  const brokenAlias = defineOperation({ ...getBook, name: 'broken', canonicalFieldAliases: { name: ['author'] } })
  const broken = library({ id: 'broken', operations: [listBooks, brokenAlias] })
  const lazyGateway = (onError: (error: unknown) => void = () => {}) =>
    createGateway({
      sources: [library(), broken],
      compileSources: 'on-first-use',
      upstreams: { shelf: { baseUrl: fake.baseUrl }, covers: { baseUrl: fake.baseUrl } },
      onError,
    })

  it('is the only way a gateway with a broken definition starts: at start, the default, it throws naming it', () => {
    expect(() => createGateway({ sources: [library(), broken], onError: () => {} })).toThrow(
      /broken\.broken: alias "name" names author/,
    )
    expect(() => lazyGateway()).not.toThrow()
  })

  it('lists every source and its operations from the definitions, and serves the sound source', async () => {
    const gateway = lazyGateway()
    const list = await get('/api/v1/kilder', '', gateway)
    expect(list.status).toBe(200)
    expect(
      list.json.sources.map((s: { id: string; operations: { name: string }[] }) => [
        s.id,
        s.operations.map((o) => o.name),
      ]),
    ).toEqual([
      ['library', ['list_books', 'get_book', 'calls_undeclared']],
      ['broken', ['list_books', 'broken']],
    ])
    const books = await get('/api/v1/kilder/library/list_books', 'limit=2', gateway)
    expect(books.status).toBe(200)
    expect(books.json.data.books).toEqual([
      { isbn: '978-0', title: 'Book 0' },
      { isbn: '978-1', title: 'Book 1' },
    ])
    expect(books.json._meta.pagination).toMatchObject({ limit: 2, returned: 2, total: 7 })
  })

  it('answers 500 for a source whose definition is broken, every time, and reports the definition error', async () => {
    const reported: unknown[] = []
    const gateway = lazyGateway((error) => reported.push(error))
    for (let i = 0; i < 2; i++) {
      const { status, json } = await get('/api/v1/kilder/broken/list_books', '', gateway)
      expect(status).toBe(500)
      expect(JSON.stringify(json)).not.toContain('at compileOperation')
    }
    expect(reported).toHaveLength(2)
    expect(String(reported[0])).toMatch(
      /broken\.broken: alias "name" names author, which the output schema does not have/,
    )
  })

  it('still refuses an unknown compileSources value', () => {
    expect(() => createGateway({ sources: [library()], compileSources: 'lazy' as never })).toThrow(
      /compileSources must be 'at-start' or 'on-first-use', not "lazy"/,
    )
  })
})
