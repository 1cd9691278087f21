import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { createGateway } from '../index.js'
import {
  deferEntitySearch,
  defineOperation,
  defineSource,
  defineUpstream,
  type EntitySearch,
  type EntitySearchContext,
} from '../source.js'

const codes = new Set(['OSL', 'SKØ'])
/** A search over a "table" only its own module holds, as a station search's module would. */
const stationSearch: EntitySearch = {
  recognize: (text) => (codes.has(text.trim().toUpperCase()) ? 'station_code' : undefined),
  search: async (text) => ({
    hits: codes.has(text.trim().toUpperCase())
      ? [{ type: 'station', id: text.trim().toUpperCase(), name: `Station ${text.trim()}` }]
      : [],
  }),
}
const ctx: EntitySearchContext = { limit: 10, signal: new AbortController().signal, call: async () => undefined }

/** The deferred search and how often its loader ran, as an `import()` of its module would run it. */
function counted(load: () => Promise<EntitySearch> = async () => stationSearch) {
  const loads = { count: 0 }
  const search = deferEntitySearch(
    async () => {
      loads.count++
      return load()
    },
    { mayRecognize: (text) => /^\p{L}{2,4}$/u.test(text.trim()) },
  )
  return { search, loads }
}

describe('deferEntitySearch', () => {
  it('loads nothing until a search, then loads once however many searches run', async () => {
    const { search, loads } = counted()
    expect(loads.count).toBe(0)
    const [first, second] = await Promise.all([search.search('osl', ctx), search.search('Bergen', ctx)])
    expect(first.hits).toEqual([{ type: 'station', id: 'OSL', name: 'Station osl' }])
    expect(second.hits).toEqual([])
    await search.search('skø', ctx)
    expect(loads.count).toBe(1)
  })

  it('recognizes as the loaded search does, loading it only for a text mayRecognize lets through', async () => {
    const { search, loads } = counted()
    expect(await search.recognize?.('Bergen stasjon')).toBeUndefined()
    expect(loads.count).toBe(0)
    expect(await search.recognize?.('skø')).toBe('station_code')
    // Four letters pass the shape test, but the loaded search knows no such code.
    expect(await search.recognize?.('Oslo')).toBeUndefined()
    expect(loads.count).toBe(1)
  })

  it('recognizes nothing without mayRecognize', async () => {
    const search = deferEntitySearch(async () => stationSearch)
    expect(search.recognize).toBeUndefined()
  })

  it('fails a search whose load fails, recognizes nothing then, and loads again on the next search', async () => {
    let fail = true
    const { search, loads } = counted(async () => {
      if (fail) throw new Error('chunk missing')
      return stationSearch
    })
    await expect(search.search('osl', ctx)).rejects.toThrow('chunk missing')
    expect(await search.recognize?.('osl')).toBeUndefined()
    fail = false
    expect((await search.search('osl', ctx)).hits).toHaveLength(1)
    expect(loads.count).toBe(3)
  })

  it('routes an auto search to the source whose deferred search recognizes the text, and not a text it does not', async () => {
    const upstream = defineUpstream({
      id: 'rail_api',
      name: 'Rail API',
      baseUrl: 'http://127.0.0.1:9',
      publisher: 'Tests',
    })
    const { search } = counted()
    const source = (id: string, entitySearch: EntitySearch) =>
      defineSource({
        id,
        name: `Test source ${id}`,
        description: 'A source for the deferred search tests.',
        documentation: `https://example.no/${id}`,
        topic: 'testing',
        keywords: [id],
        contentLanguages: ['en'],
        cacheTtlSeconds: 60,
        upstreams: [upstream],
        entityTypes: { station: { operation: 'get_station', parameter: 'id' } },
        entitySearch,
        operations: [
          defineOperation({
            name: 'get_station',
            description: 'One station.',
            parameters: { id: v.string() },
            output: v.string(),
            run: async (p) => ({ data: p.id }),
          }),
        ],
      })
    const other: EntitySearch = {
      search: async () => ({ hits: [{ type: 'station', id: 'x', name: 'Oslo elsewhere' }] }),
    }
    const gateway = createGateway({ sources: [source('others', other), source('rail', search)], onError: () => {} })
    const answer = async (q: string) =>
      JSON.parse(
        (
          await gateway.handle({
            method: 'GET',
            path: '/api/v1/sok/alle',
            query: `q=${encodeURIComponent(q)}&mode=auto`,
            headers: {},
          })
        ).body!,
      )
    const recognized = await answer('SKØ')
    expect(recognized.routing).toMatchObject({ recognized_as: 'station_code', source: 'rail' })
    expect(recognized.not_searched.details).toContainEqual({ source: 'others', reason: 'routed_elsewhere' })
    const notRecognized = await answer('Oslo')
    expect(notRecognized.routing?.recognized_as).toBeUndefined()
  })
})
