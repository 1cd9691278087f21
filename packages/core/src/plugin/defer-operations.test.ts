import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, type GatewayOptions } from '../index.js'
import {
  deferOperations,
  defineOperation,
  defineSource,
  defineUpstream,
  loadOperations,
  type OperationDefinition,
  type PlaceFieldDeclaration,
} from '../source.js'
import { checkSource, SourceCheckError, startFakeUpstream, type FakeUpstream } from '../testing/index.js'

const tideApi = defineUpstream({
  id: 'tides',
  name: 'Tide tables',
  baseUrl: 'https://tides.example.no/api',
  publisher: 'Tides AS',
})
const harbourField: PlaceFieldDeclaration = {
  name: 'harbours',
  section: 'maritime',
  description: 'The nearest harbours.',
}

const point = {
  lat: v.pipe(v.number(), v.minValue(-90), v.maxValue(90)),
  lon: v.pipe(v.number(), v.minValue(-180), v.maxValue(180)),
}
const harbour = v.object({ id: v.string(), name: v.string() })

const listHarbours = defineOperation({
  name: 'list_harbours',
  description: 'Every harbour.',
  parameters: {},
  output: v.array(harbour),
  run: async (_params, ctx) => ({
    data: (await ctx.upstream(tideApi).getJson<{ id: string; name: string }[]>('/harbours')).body,
  }),
})
const harboursNear = defineOperation({
  name: 'harbours_near',
  description: 'The harbours near a point.',
  parameters: point,
  output: v.array(harbour),
  placeField: harbourField,
  run: async (_params, ctx) => ({
    data: (await ctx.upstream(tideApi).getJson<{ id: string; name: string }[]>('/harbours')).body.slice(0, 1),
  }),
})

/** A source whose operations come from a loader that counts its calls, as an `import()` of their module would give them. */
function harbours(loaded: () => Promise<readonly OperationDefinition[]> = async () => [listHarbours, harboursNear]) {
  const loads = { count: 0 }
  const source = defineSource({
    id: 'harbours',
    name: 'Harbours',
    description: 'Harbours and their tides.',
    documentation: 'https://tides.example.no/docs',
    topic: 'maritime',
    keywords: ['harbour', 'havn'],
    contentLanguages: ['no'],
    cacheTtlSeconds: 60,
    upstreams: [tideApi],
    operations: deferOperations(['list_harbours', { name: 'harbours_near', placeField: harbourField }], () => {
      loads.count++
      return loaded()
    }),
  })
  return { source, loads }
}

let fake: FakeUpstream
beforeAll(async () => {
  fake = await startFakeUpstream({
    '/harbours': () => ({
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { id: 'h1', name: 'Bryggen' },
        { id: 'h2', name: 'Vippetangen' },
      ]),
    }),
  })
})
afterAll(() => fake.close())

const gatewayOf = (source: GatewayOptions['sources'][number], options: Partial<GatewayOptions> = {}) =>
  createGateway({
    sources: [source],
    compileSources: 'on-first-use',
    upstreams: { tides: { baseUrl: fake.baseUrl } },
    onError: () => {},
    ...options,
  })

async function get(gateway: ReturnType<typeof createGateway>, path: string, query = '') {
  const res = await gateway.handle({ method: 'GET', path, query, headers: {} })
  return { status: res.status, json: JSON.parse(res.body ?? 'null') }
}

describe('deferOperations', () => {
  it('lists the source, its operations and its place fields without loading them', async () => {
    const { source, loads } = harbours()
    const gateway = gatewayOf(source)
    const list = await get(gateway, '/api/v1/kilder')
    expect(list.json.sources[0].operations.map((o: { name: string }) => o.name)).toEqual([
      'list_harbours',
      'harbours_near',
    ])
    const index = await get(gateway, '/api/v1/')
    expect(index.json.places.fields).toEqual([
      {
        name: 'harbours',
        section: 'maritime',
        description: 'The nearest harbours.',
        summary: false,
        source: 'harbours',
        operation: 'harbours_near',
      },
    ])
    expect(loads.count).toBe(0)
    // A source's own descriptor reads them (its compact and full views describe each operation).
    expect((await get(gateway, '/api/v1/kilder/harbours', 'view=names')).status).toBe(200)
    expect(loads.count).toBe(1)
  })

  it('loads them once, on the first request that reads them, however many arrive together', async () => {
    const { source, loads } = harbours()
    const gateway = gatewayOf(source)
    const answers = await Promise.all([
      get(gateway, '/api/v1/kilder/harbours/list_harbours'),
      get(gateway, '/api/v1/kilder/harbours/harbours_near', 'lat=60.39&lon=5.32'),
      get(gateway, '/api/v1/kilder/harbours/list_harbours/schema'),
    ])
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200])
    expect(answers[0]!.json.data).toEqual([
      { id: 'h1', name: 'Bryggen' },
      { id: 'h2', name: 'Vippetangen' },
    ])
    expect(loads.count).toBe(1)
    const bundle = await get(gateway, '/api/v1/steder/60.39/5.32', 'fields=harbours')
    expect(bundle.status).toBe(200)
    expect(JSON.stringify(bundle.json)).toContain('Bryggen')
    expect(loads.count).toBe(1)
  })

  it('loads them for an in-process call, for OpenAPI and for an unknown operation’s 404 listing them', async () => {
    const { source } = harbours()
    expect((await gatewayOf(source).invoke('harbours', 'list_harbours')).data).toHaveLength(2)
    const openapi = await get(gatewayOf(harbours().source), '/api/v1/openapi.json')
    expect(Object.keys(openapi.json.paths)).toContain('/api/v1/kilder/harbours/harbours_near')
    const unknown = await get(gatewayOf(harbours().source), '/api/v1/kilder/harbours/nothing')
    expect(unknown.status).toBe(404)
    expect(unknown.json.error.message).toMatch(/its operations: list_harbours, harbours_near/)
  })

  it('starts loading at once when sources compile at start, and is served from then on', async () => {
    const { source, loads } = harbours()
    const gateway = gatewayOf(source, { compileSources: 'at-start' })
    expect(loads.count).toBe(1)
    expect((await get(gateway, '/api/v1/kilder/harbours/list_harbours')).status).toBe(200)
    expect(loads.count).toBe(1)
  })

  it('answers 500 for a source whose loaded operations differ from the outline, and reports what differs; other sources are served', async () => {
    const reported: unknown[] = []
    const { source } = harbours(async () => [listHarbours, { ...harboursNear, name: 'harbours_close' }])
    const gateway = gatewayOf(source, { onError: (error) => reported.push(error) })
    for (let i = 0; i < 2; i++) {
      const answer = await get(gateway, '/api/v1/kilder/harbours/list_harbours')
      expect(answer.status).toBe(500)
      expect(JSON.stringify(answer.json)).not.toMatch(/outline|at /)
    }
    expect(String(reported[0])).toMatch(
      /Source harbours: its outline names the operations list_harbours, harbours_near, but it loaded list_harbours, harbours_close/,
    )
    expect((await get(gateway, '/api/v1/kilder')).status).toBe(200)
  })

  it('tells a place field that differs from the outline, and a loader that fails, to onError at start', async () => {
    const reported: unknown[] = []
    const { source: wrongField } = harbours(async () => [
      listHarbours,
      { ...harboursNear, placeField: { ...harbourField, section: 'energy' } },
    ])
    const { source: failing } = harbours(async () => Promise.reject(new Error('chunk harbours-X.mjs not found')))
    gatewayOf(wrongField, { compileSources: 'at-start', onError: (error) => reported.push(error) })
    gatewayOf(failing, { compileSources: 'at-start', onError: (error) => reported.push(error) })
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(reported.map(String)).toEqual([
      'TypeError: Source harbours: its outline gives harbours_near the place field harbours (section maritime), but the loaded operation fills harbours (section energy)',
      'Error: chunk harbours-X.mjs not found',
    ])
  })

  it('reports a definition error found when the loaded operations compile at start', async () => {
    const reported: unknown[] = []
    const broken = defineOperation({ ...listHarbours, canonicalFieldAliases: { title: ['headline'] } })
    const { source } = harbours(async () => [broken, harboursNear])
    const gateway = gatewayOf(source, { compileSources: 'at-start', onError: (error) => reported.push(error) })
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(String(reported[0])).toMatch(/harbours\.list_harbours: alias "title" names headline/)
    expect((await get(gateway, '/api/v1/kilder/harbours/harbours_near', 'lat=60&lon=5')).status).toBe(500)
  })

  it('gives the definitions through loadOperations, and checkSource fails a source whose operations do not load as outlined', async () => {
    expect((await loadOperations(harbours().source)).map((o) => o.name)).toEqual(['list_harbours', 'harbours_near'])
    const { source } = harbours(async () => [harboursNear, listHarbours])
    await expect(loadOperations(source)).rejects.toThrow(
      /outline names the operations list_harbours, harbours_near, but it loaded harbours_near, list_harbours/,
    )
    const failure = await checkSource(source, { upstreams: { tides: fake } }).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(SourceCheckError)
    expect(String((failure as SourceCheckError).message)).toMatch(/its operations load as outlined/)
  })

  it('loads once per definition, however many gateways serve it', async () => {
    const { source, loads } = harbours()
    for (const gateway of [gatewayOf(source), gatewayOf(source, { compileSources: 'at-start' })]) {
      expect((await get(gateway, '/api/v1/kilder/harbours/list_harbours')).status).toBe(200)
    }
    expect(loads.count).toBe(1)
    expect(harbours().loads.count).toBe(0)
  })

  it('refuses two outlined operations with one name when the source is defined', () => {
    expect(() =>
      defineSource({ ...harbours().source, operations: deferOperations(['a', 'a'], async () => []) }),
    ).toThrow(/defines operation a twice/)
  })
})

describe('deferOperations with the outline keyed by the operations’ names', () => {
  // The definitions as a source's operations.ts gives them: no names, keyed by identifier.
  const { name: _list, ...listDraft } = listHarbours
  const { name: _near, ...nearDraft } = harboursNear
  const drafts = {
    listHarbours: defineOperation(listDraft),
    harboursNear: defineOperation(nearDraft),
  }
  const keyed = (given: () => Promise<Record<string, unknown>> = async () => drafts) =>
    defineSource({
      ...harbours().source,
      operations: deferOperations(
        { list_harbours: 'listHarbours', harbours_near: { operation: 'harboursNear', placeField: harbourField } },
        given as () => Promise<typeof drafts>,
      ),
    })

  it('names each loaded definition by its key in the outline, in the outline’s order, and serves it', async () => {
    const source = keyed()
    expect((await loadOperations(source)).map((o) => [o.name, o.description])).toEqual([
      ['list_harbours', 'Every harbour.'],
      ['harbours_near', 'The harbours near a point.'],
    ])
    const gateway = gatewayOf(source)
    const listing = await get(gateway, '/api/v1/kilder/harbours/list_harbours')
    expect(listing.status).toBe(200)
    expect(listing.json.data).toEqual([
      { id: 'h1', name: 'Bryggen' },
      { id: 'h2', name: 'Vippetangen' },
    ])
    expect((await get(gateway, '/api/v1/kilder/harbours/harbours_near', 'lat=60&lon=5')).json.data).toHaveLength(1)
    const report = await checkSource(source, {
      upstreams: { tides: fake },
      examples: { harbours_near: { lat: 60, lon: 5 } },
    })
    expect(report.operations).toEqual(['list_harbours', 'harbours_near'])
  })

  it('says which source, which name and which key when the loader does not give a definition the outline names', async () => {
    await expect(loadOperations(keyed(async () => ({ listHarbours: drafts.listHarbours })))).rejects.toThrow(
      'Source harbours: its outline names harbours_near after the operation "harboursNear", which its loader does not give',
    )
  })

  it('refuses a definition whose own name differs from its key’s, and takes one whose name is the same', async () => {
    await expect(
      loadOperations(
        keyed(async () => ({ ...drafts, harboursNear: harboursNear, listHarbours: { ...listHarbours, name: 'all' } })),
      ),
    ).rejects.toThrow(
      'Source harbours: its outline names the operation "listHarbours" list_harbours, but its definition says all',
    )
    expect((await loadOperations(keyed(async () => ({ listHarbours, harboursNear })))).map((o) => o.name)).toEqual([
      'list_harbours',
      'harbours_near',
    ])
  })

  it('refuses a name that is not snake_case when the source is defined', () => {
    expect(() => deferOperations({ 'List-Harbours': 'listHarbours' }, async () => drafts)).toThrow(
      'Operation name "List-Harbours" must be snake_case ([a-z][a-z0-9_]*)',
    )
  })
})
