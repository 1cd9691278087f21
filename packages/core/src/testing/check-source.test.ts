import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  checkUpstreamShape,
  defineOperation,
  defineSource,
  defineUpstream,
  type SourceDefinition,
} from '@allmenning/core/source'
import { checkSource } from './check-source.js'
import { SourceCheckError } from './check-recorder.js'
import { fakeReply } from './fake-reply.js'
import { startFakeUpstream, type FakeUpstream } from './fake-upstream.js'

// A small source made for these tests: bird sightings from a counting service, with the
// mistakes plugin authors make switched on one at a time.
const birds = defineUpstream({
  id: 'artsdata',
  name: 'Artsdata sightings',
  baseUrl: 'https://artsdata.example.no/api',
  publisher: 'Artsdatabanken',
  license: 'CC BY 4.0',
})

const sightingsPayload = v.array(v.looseObject({ art: v.string(), antall: v.number(), sted: v.string() }))
const sighting = v.object({ species: v.string(), count: v.number(), place: v.string() })

type Mistake =
  | 'none'
  | 'swallows-upstream-failures'
  | 'count-as-text'
  | 'ignores-paging'
  | 'parses-json-itself'
  | 'undeclared-entity-type'
  | 'alias-to-missing-field'
  | 'search-without-example'
  | 'parameter-as-object'

const rows = [
  { art: 'Havørn', antall: 2, sted: 'Lofoten' },
  { art: 'Kongeørn', antall: 1, sted: 'Dovre' },
  { art: 'Fiskeørn', antall: 3, sted: 'Femunden' },
]

function sightings(mistake: Mistake = 'none'): SourceDefinition {
  const list = defineOperation({
    name: 'list_sightings',
    description: 'Sightings of a bird family in one county.',
    parameters: {
      // The mistake: a schema that parses the county into an object, which the echo and links then carry.
      county:
        mistake === 'parameter-as-object'
          ? v.pipe(
              v.string(),
              v.minLength(2),
              v.transform((name) => ({ name }) as unknown as string),
            )
          : v.pipe(v.string(), v.minLength(2)),
      season: v.optional(v.picklist(['spring', 'summer', 'autumn', 'winter']), 'summer'),
    },
    output: v.array(sighting),
    ...(mistake === 'alias-to-missing-field' ? { canonicalFieldAliases: { name: ['[].name'] } } : {}),
    async run(params, ctx) {
      const client = ctx.upstream(birds)
      if (mistake === 'parses-json-itself') {
        const res = await client.getText('/sightings', { query: { fylke: params.county } })
        const payload = JSON.parse(res.body) as typeof rows
        return { data: payload.map((r) => ({ species: r.art, count: r.antall, place: r.sted })) }
      }
      let payload: v.InferOutput<typeof sightingsPayload>
      try {
        const county = typeof params.county === 'string' ? params.county : (params.county as { name: string }).name
        const res = await client.getJson('/sightings', { query: { fylke: county } })
        payload = checkUpstreamShape(client, sightingsPayload, res.body, 'the sightings')
      } catch (error) {
        if (mistake === 'swallows-upstream-failures') return { data: [] }
        throw error
      }
      const data = payload.map((r) => ({
        species: r.art,
        count: mistake === 'count-as-text' ? String(r.antall) : r.antall,
        place: r.sted,
      }))
      return mistake === 'ignores-paging'
        ? { data: data as v.InferOutput<typeof sighting>[], page: { hasMore: false } }
        : { data: data as v.InferOutput<typeof sighting>[] }
    },
    entities: (data) =>
      data.map((s) => ({ type: mistake === 'undeclared-entity-type' ? 'bird' : 'species', id: s.species })),
  })
  return defineSource({
    id: 'sightings',
    name: 'Bird sightings',
    description: 'Bird sightings counted by volunteers.',
    documentation: 'https://artsdata.example.no/docs',
    topic: 'nature',
    keywords: ['birds', 'fugler'],
    contentLanguages: ['no'],
    cacheTtlSeconds: 600,
    upstreams: [birds],
    entityTypes: { species: { operation: 'list_sightings', parameter: 'county' } },
    ...(mistake === 'search-without-example' ? { entitySearch: { search: async () => ({ hits: [] }) } } : {}),
    operations: [list],
  })
}

let fake: FakeUpstream
beforeAll(async () => {
  fake = await startFakeUpstream({ '/sightings': () => fakeReply.json(rows) }, { prefix: '/api' })
})
afterAll(() => fake.close())

const check = (mistake: Mistake) =>
  checkSource(() => sightings(mistake), {
    upstreams: { artsdata: fake },
    examples: { list_sightings: { county: 'Nordland' } },
  })

async function failuresOf(mistake: Mistake): Promise<string[]> {
  const error = await check(mistake).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(SourceCheckError)
  return (error as SourceCheckError).failures
}

describe('checkSource', () => {
  it('passes a source that behaves, and reports what it checked', async () => {
    const report = await check('none')
    expect(report.source).toBe('sightings')
    expect(report.operations).toEqual(['list_sightings'])
    expect(report.notes).toEqual([])
    expect(report.passed).toEqual(
      expect.arrayContaining([
        'the gateway accepts the definition',
        'the source descriptor (spec 2.5), its views and the API index entry',
        'list_sightings: its /schema descriptor',
        'the OpenAPI document is valid OpenAPI 3.1',
        'list_sightings: answers 200 with the envelope of spec 2.1 and paging metadata',
        'list_sightings: data matches the output schema',
        'list_sightings: limit and offset page the list',
        'list_sightings: an unknown parameter is the shared 400 naming it',
        'list_sightings: a missing county is the shared 400 naming it',
        'list_sightings: season outside its allowed values is the shared 400 naming it',
        'list_sightings: limit=0 is the shared 400 naming it',
        'list_sightings: limit=101 is the shared 400 naming it',
        'list_sightings: when its upstream answers HTTP 503, a 502 naming it',
        'list_sightings: when its upstream does not answer in time, a 502 naming it',
        'list_sightings: when its upstream drops the connection, a 502 naming it',
        'list_sightings: when its upstream answers an HTML maintenance page with status 200, a 502 naming it',
      ]),
    )
  })

  it('catches a source that answers 200 when its upstream fails', async () => {
    expect(await failuresOf('swallows-upstream-failures')).toEqual(
      [
        'answers HTTP 503',
        'does not answer in time',
        'drops the connection',
        'answers an HTML maintenance page with status 200',
      ].map(
        (what) =>
          `list_sightings: when its upstream ${what}, a 502 naming it: it called the failing upstream and answered 200 as if nothing failed`,
      ),
    )
  })

  it('catches data that does not match the output schema', async () => {
    expect(await failuresOf('count-as-text')).toEqual([
      expect.stringMatching(
        /^list_sightings: data matches the output schema: data does not match the output schema: .*count/,
      ),
    ])
  })

  it('catches an operation that says it paged the list but did not', async () => {
    const failures = await failuresOf('ignores-paging')
    expect(failures.join('\n')).toContain(
      'list_sightings: limit and offset page the list: limit=1 answers 3 items, not 1',
    )
  })

  it('catches a source that breaks on an HTML page instead of answering 502, and shows the hidden error', async () => {
    const failures = await failuresOf('parses-json-itself')
    expect(failures).toEqual([
      expect.stringMatching(
        /^list_sightings: when its upstream answers an HTML maintenance page with status 200, a 502 naming it: status 500, expected 502/,
      ),
      `nothing failed unexpectedly inside the gateway when the upstream answers an HTML maintenance page with status 200: SyntaxError: ${failures[1]!.split('SyntaxError: ')[1]}`,
    ])
  })

  it('catches entities of a type the source does not declare', async () => {
    const failures = await failuresOf('undeclared-entity-type')
    expect(failures[0]).toMatch(
      /^list_sightings: answers 200 with the envelope of spec 2\.1: answers 500 internal_error/,
    )
    expect(failures.join('\n')).toContain(
      'TypeError: sightings returned an entity of type bird, which it does not declare in entityTypes',
    )
  })

  it('catches a parameter parsed into an object, which the echo and links cannot carry', async () => {
    const failures = await failuresOf('parameter-as-object')
    expect(failures).toHaveLength(1)
    expect(failures[0]).toMatch(/^list_sightings: answers 200 with the envelope of spec 2\.1 and paging metadata: /)
    expect(failures[0]).toContain(
      'parameters echoes county as {"name":"Nordland"}: a parameter\'s schema must turn what the caller sent into a string, number, boolean or a list of them',
    )
  })

  it('reports a definition the gateway refuses, and stops there', async () => {
    expect(await failuresOf('alias-to-missing-field')).toEqual([
      'the gateway accepts the definition: sightings.list_sightings: alias "name" names [].name, which the output schema does not have',
    ])
  })

  it('asks for a search text when the source declares entity search', async () => {
    expect(await failuresOf('search-without-example')).toEqual([
      'its entity search answers /api/v1/sok/alle with hits linked to its operations: the source declares entitySearch; give `search`, a text its fakes find an entity for',
    ])
  })

  it('asks for an example where an operation has required parameters, and a fake for every upstream', async () => {
    await expect(checkSource(sightings, { upstreams: { artsdata: fake } })).rejects.toThrow(
      'list_sightings: has an example call: it requires county; give examples.list_sightings',
    )
    await expect(checkSource(sightings, { upstreams: {} })).rejects.toThrow(
      'checkSource(sightings): give a local fake for every upstream, so the check reaches no real service; missing: artsdata',
    )
    await expect(
      checkSource(sightings, { upstreams: { artsdata: fake }, examples: { list_birds: {} } }),
    ).rejects.toThrow('examples name list_birds')
  })

  it('needs no test runner: the failure is a plain Error with every problem in its message', async () => {
    const error = await check('swallows-upstream-failures').then(
      () => undefined,
      (e: unknown) => e as Error,
    )
    expect(Object.getPrototypeOf(SourceCheckError.prototype)).toBe(Error.prototype)
    expect(error?.message).toMatch(
      /^Source sightings failed 4 of \d+ checks:\n {2}- list_sightings: when its upstream answers HTTP 503/,
    )
  })
})
