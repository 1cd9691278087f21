import { inspect } from 'node:util'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, type Gateway } from '@allmenning/core'
import type { GatewayObserver } from '@allmenning/core/extension'
import type { FakeUpstream } from '@allmenning/core/testing'
import { startFakeKommuneinfo } from '../shared/testing/fake-kommuneinfo.js'
import { heritageCql } from './heritage-filter.js'
import { pointOf, siteNumberOf } from './heritage-features.js'
import { kulturarv } from './index.js'
import { coordinateOf } from './museum-objects.js'
import { DEMO_DIMU_KEY } from './testing/demo-upstreams.js'
import { FAKE_DIMU_KEY, startFakeDimu } from './testing/fake-dimu.js'
import { heritageFeatures, startFakeRiksantikvaren } from './testing/fake-riksantikvaren.js'

let ra: FakeUpstream
let dimu: FakeUpstream
let kommuneinfo: FakeUpstream

beforeAll(async () => {
  ;[ra, dimu, kommuneinfo] = await Promise.all([
    startFakeRiksantikvaren(),
    startFakeDimu({ keys: [FAKE_DIMU_KEY], limitedKeys: [DEMO_DIMU_KEY] }),
    startFakeKommuneinfo(),
  ])
})
afterAll(() => Promise.all([ra.close(), dimu.close(), kommuneinfo.close()]))
afterEach(() => {
  ra.failWith(undefined)
  dimu.failWith(undefined)
})

type Extra = { observers?: GatewayObserver[]; onError?: (e: unknown) => void; riksantikvaren?: FakeUpstream }
const gatewayFor = (dimuApiKey: string | undefined = FAKE_DIMU_KEY, extra: Extra = {}) =>
  createGateway({
    sources: [kulturarv({ ...(dimuApiKey === undefined ? {} : { dimuApiKey }) })],
    upstreams: {
      riksantikvaren: { baseUrl: (extra.riksantikvaren ?? ra).baseUrl, timeoutMs: 2000 },
      dimu: { baseUrl: dimu.baseUrl, timeoutMs: 2000 },
      kartverket_kommuneinfo: { baseUrl: kommuneinfo.baseUrl },
    },
    upstream: { breakAfterFailures: 0 },
    onError: extra.onError ?? (() => {}),
    ...(extra.observers ? { observers: extra.observers } : {}),
  })
const call = async (g: Gateway, operation: string, query: string) => {
  const res = await g.handle({ method: 'GET', path: `/api/v1/kilder/kulturarv/${operation}`, query, headers: {} })
  return { status: res.status, body: res.body!, json: JSON.parse(res.body!) }
}
/** The query of the last request a fake received, as a plain object. */
const lastQuery = (fake: FakeUpstream, path = '') =>
  Object.fromEntries(new URL(`http://x${fake.requests.filter((r) => r.includes(path)).at(-1)}`).searchParams)
const ids = (json: { data: { sites: { heritage_site_id: number }[] } }) =>
  json.data.sites.map((s) => s.heritage_site_id)

describe('search_heritage_sites', () => {
  it('answers what the public gateway’s clients send (kommune=Oslo, art=Museum-galleri, limit=100) in the fields they read', async () => {
    const { status, json } = await call(
      gatewayFor(),
      'search_heritage_sites',
      'kommune=Oslo&art=Museum-galleri&limit=100',
    )
    expect(status).toBe(200)
    expect(lastQuery(ra)).toEqual({
      f: 'json',
      filter: "(kommune='Oslo' OR kommune='0301') AND art='Museum-galleri'",
      'filter-lang': 'cql2-text',
      limit: '100',
      offset: '0',
    })
    // A museum is several buildings: Norsk Folkemuseum's two museum buildings share locality 100201.
    expect(ids(json)).toEqual([100201, 100201, 100318, 100427, 100533, 100640])
    expect(json.data.sites[1]).toMatchObject({
      heritage_site_id: 100201,
      monument_id: '100201-2',
      navn: 'Tilbygg. Nf 325',
      art: 'Museum-galleri',
      kind: 'E-BYG',
      kind_name: 'Bygning',
      kommune: 'Oslo',
      lon_lat: [10.6861, 59.9079],
      lat: 59.9079,
      lon: 10.6861,
      distance_km: null,
      link: 'https://kulturminnesok.no/ra/lokalitet/100201',
    })
    expect(json.data).toMatchObject({
      count: 6,
      municipality: { number: '0301', name: 'Oslo' },
      has_more_results: false,
    })
    expect(json._provenance.data.source_api).toContain('/collections/kulturminner/items?')
  })

  it('takes the municipality as 0301 and 301 as well, and gives one row per site when asked', async () => {
    const g = gatewayFor()
    const byNumber = await call(g, 'search_heritage_sites', 'kommune=0301&art=Museum-galleri')
    const short = await call(g, 'search_heritage_sites', 'kommune=301&art=Museum-galleri&one_per_site=true')
    expect(ids(byNumber.json)).toEqual([100201, 100201, 100318, 100427, 100533, 100640])
    expect(ids(short.json)).toEqual([100201, 100318, 100427, 100533, 100640])
  })

  it('pages with the upstream: exactly the page asked for is read, and has_more_results says what remains', async () => {
    const g = gatewayFor()
    const first = await call(g, 'search_heritage_sites', 'kommune=Oslo&limit=5')
    expect(lastQuery(ra)).toMatchObject({ limit: '5', offset: '0' })
    const second = await call(g, 'search_heritage_sites', 'kommune=Oslo&limit=5&offset=10')
    expect(lastQuery(ra)).toMatchObject({ limit: '5', offset: '10' })
    expect(first.json.data).toMatchObject({ count: 14, has_more_results: true })
    expect(first.json.data.sites).toHaveLength(5)
    expect(second.json.data.sites).toHaveLength(4)
    expect(second.json.data.has_more_results).toBe(false)
  })

  it('finds the sites around a point, nearest first within radius_km, a polygon placed at the mean of its outline', async () => {
    const { status, json } = await call(gatewayFor(), 'search_heritage_sites', 'lat=59.91&lon=10.75')
    expect(status).toBe(200)
    const q = lastQuery(ra)
    expect(q.limit).toBe('1000')
    expect(q.bbox!.split(',').map(Number)).toEqual([10.73206, 59.90101, 10.76794, 59.91899])
    const rows = json.data.sites as { navn: string; distance_km: number }[]
    expect(rows.map((r) => r.navn)).toEqual([
      'Oslo domkirke',
      'Rådhusgården, Christiania torv',
      'Bolighus, Kongens gate 15',
      'Akershus festning, Hovedvakten',
      'Nasjonalgalleriet',
      'Kunstindustrimuseet',
    ])
    expect(rows.map((r) => r.distance_km)).toEqual([...rows.map((r) => r.distance_km)].sort((a, b) => a - b))
    expect(rows.every((r) => r.distance_km <= 1)).toBe(true)
    const fortress = await call(gatewayFor(), 'search_heritage_sites', 'lat=59.9074&lon=10.7364&radius_km=0.2')
    expect(fortress.json.data.sites[0]).toMatchObject({
      navn: 'Akershus festning, Hovedvakten',
      lon_lat: [10.7364, 59.9074],
      distance_km: 0,
    })
  })

  it('says when the box around the circle held more sites than one page of the upstream', async () => {
    const many = Array.from({ length: 1001 }, (_, i) => ({
      ...heritageFeatures[8]!,
      id: `${200000 + i}-1`,
      properties: {
        ...heritageFeatures[8]!.properties,
        kulturminneId: `${200000 + i}-1`,
        lokalitetsId: String(200000 + i),
      },
    }))
    const crowded = await startFakeRiksantikvaren(many)
    try {
      const { status, json } = await call(
        gatewayFor(FAKE_DIMU_KEY, { riksantikvaren: crowded }),
        'search_heritage_sites',
        'lat=59.91&lon=10.75&limit=10',
      )
      expect(status).toBe(200)
      expect(json._meta.capped).toMatchObject({ cap: 1000 })
      expect(json.data.sites).toHaveLength(10)
    } finally {
      await crowded.close()
    }
  })

  it('searches text in names and descriptions, with a quote in it escaped, and by category', async () => {
    const g = gatewayFor()
    const church = await call(g, 'search_heritage_sites', 'query=KIRKE&kind=e-krk')
    expect(church.json.data.sites.map((s: { navn: string }) => s.navn)).toEqual(['Oslo domkirke', 'Gamle Aker kirke'])
    const quoted = await call(g, 'search_heritage_sites', `query=${encodeURIComponent("Kongens' gate")}`)
    expect(quoted.status).toBe(200)
    expect(lastQuery(ra).filter).toBe(
      "(CASEI(navn) LIKE CASEI('%Kongens'' gate%') OR CASEI(informasjon) LIKE CASEI('%Kongens'' gate%'))",
    )
    const box = await call(g, 'search_heritage_sites', 'bbox=5.3,60.39,5.33,60.40')
    expect(box.json.data.sites.map((s: { kommune: string }) => s.kommune)).toEqual(['Bergen'])
  })

  it.each([
    ['lat without lon', 'lat=59.91', 'lon', 'required_with'],
    ['a point and a box', 'lat=59.91&lon=10.75&bbox=10.7,59.9,10.8,59.95', 'bbox', 'exclusive'],
    ['no filter at all', '', 'kommune', 'one_of_required'],
  ])(
    'refuses %s with a 400 naming the parameter and the rule, without asking Riksantikvaren',
    async (_name, query, parameter, rule) => {
      const before = ra.requests.length
      const { status, json } = await call(gatewayFor(), 'search_heritage_sites', query)
      expect(status).toBe(400)
      expect(json.error.details).toEqual([expect.objectContaining({ parameter, rule })])
      expect(ra.requests.length).toBe(before)
    },
  )

  it('refuses a category it does not have, listing the allowed ones, and a malformed box, naming the rule', async () => {
    const kind = await call(gatewayFor(), 'search_heritage_sites', 'kind=museum')
    expect(kind.status).toBe(400)
    expect(kind.json.error.details[0]).toMatchObject({ parameter: 'kind' })
    expect(kind.json.error.message).toContain('E-ARK, L-ARK, E-BYG, L-BVF, E-HIH, E-KRK')
    const bbox = await call(gatewayFor(), 'search_heritage_sites', 'bbox=10.8,59.9,10.7,59.95')
    expect(bbox.status).toBe(400)
    expect(bbox.json.error.message).toMatch(/bbox must be minLon,minLat,maxLon,maxLat in WGS84 degrees, west < east/)
    const art = await call(gatewayFor(), 'search_heritage_sites', `art=${encodeURIComponent("x' OR 1=1")}`)
    expect(art.status).toBe(400)
    expect(art.json.error.details[0]).toMatchObject({ parameter: 'art' })
  })

  it('answers an unknown municipality 404 and Riksantikvaren’s own 400 as a 502 naming it', async () => {
    expect((await call(gatewayFor(), 'search_heritage_sites', 'kommune=9999')).status).toBe(404)
    ra.failWith(
      {
        status: 400,
        headers: { 'content-type': 'application/problem+json' },
        body: '{"code":"InvalidParameterValue","description":"bad"}',
      },
      { times: 1 },
    )
    const { status, json, body } = await call(gatewayFor(), 'search_heritage_sites', 'kommune=Oslo&art=Kirke')
    expect(status).toBe(502)
    expect(json.error).toMatchObject({ upstream: 'riksantikvaren' })
    expect(body).not.toMatch(/\.ts:\d+/)
  })

  it('answers a page that is not GeoJSON as a 502 naming Riksantikvaren', async () => {
    ra.failWith(
      { status: 200, headers: { 'content-type': 'application/json' }, body: '{"features":"none"}' },
      { times: 1 },
    )
    const { status, json } = await call(gatewayFor(), 'search_heritage_sites', 'kommune=Oslo&art=Bolighus')
    expect(status).toBe(502)
    expect(json.error).toMatchObject({ code: 'upstream_invalid_response', upstream: 'riksantikvaren' })
  })
})

describe('search_museum_objects and list_museums', () => {
  it('searches several museums in one call, with their names, image URLs, dating and links', async () => {
    const before = dimu.hits('/api/solr/select')
    const { status, json } = await call(gatewayFor(), 'search_museum_objects', 'query=*&owner=NF,NMK-B&limit=20')
    expect(status).toBe(200)
    expect(dimu.hits('/api/solr/select') - before).toBe(1)
    expect(lastQuery(dimu, '/api/solr/select')).toMatchObject({
      q: '*',
      fq: 'identifier.owner:("NF" OR "NMK-B")',
      wt: 'json',
      rows: '20',
      start: '0',
    })
    expect(new Set(json.data.objects.map((o: { owner: string }) => o.owner))).toEqual(new Set(['NF', 'NMK-B']))
    expect(json.data.owners).toEqual([
      { code: 'NF', name: 'Norsk Folkemuseum' },
      { code: 'NMK-B', name: 'Nasjonalmuseet - Kunst' },
    ])
    const scream = json.data.objects.find((o: { title: string }) => o.title === 'Skrik')
    expect(scream).toMatchObject({
      owner: 'NMK-B',
      museum: 'Nasjonalmuseet - Kunst',
      producer: 'Munch, Edvard',
      dating: '1893',
      image_url: 'https://dms01.dimu.org/image/012s7ZZx94gh',
      link: expect.stringMatching(/^https:\/\/digitaltmuseum\.no\/0210119\d{5}$/),
    })
    const stabbur = json.data.objects.find((o: { identifier: string }) => o.identifier === 'NF.05234-112')
    expect(stabbur).toMatchObject({ lat: 59.907, lon: 10.684, dating: '1925' })
    expect(json.data).toMatchObject({ count: 6, owner_scope: 'given' })
  })

  it('takes a museum’s name as the query, as the public gateway’s clients send it, and searches that museum', async () => {
    const { json } = await call(
      gatewayFor(),
      'search_museum_objects',
      `query=${encodeURIComponent('Norsk Folkemuseum')}&limit=1`,
    )
    expect(json.data).toMatchObject({
      owner_scope: 'named_in_query',
      owners: [{ code: 'NF', name: 'Norsk Folkemuseum' }],
    })
    expect(json.data.objects).toHaveLength(1)
    expect(json.data.objects[0].title).toEqual(expect.any(String))
    const words = await call(gatewayFor(), 'search_museum_objects', 'query=Wilse')
    expect(words.json.data.owner_scope).toBe('all')
    expect(words.json.data.objects.map((o: { producer: string }) => o.producer)).toEqual([
      'Wilse, Anders Beer',
      'Wilse, Anders Beer',
    ])
  })

  it('refuses owner codes that are not codes, and * over every museum, naming the parameter', async () => {
    const before = dimu.requests.length
    const { status, json } = await call(
      gatewayFor(),
      'search_museum_objects',
      `owner=${encodeURIComponent('NF) OR (*')}`,
    )
    expect(status).toBe(400)
    expect(json.error.details[0]).toMatchObject({ parameter: 'owner' })
    const everything = await call(gatewayFor(), 'search_museum_objects', 'query=*')
    expect(everything.status).toBe(400)
    expect(everything.json.error.details[0]).toMatchObject({ parameter: 'owner', rule: 'required_with' })
    expect(dimu.requests.length).toBe(before)
  })

  it('says so when the demo key answers fewer objects than asked', async () => {
    const { json } = await call(
      gatewayFor(DEMO_DIMU_KEY),
      'search_museum_objects',
      'query=*&owner=NF,NMK-B,NMK-A,NMK-D,OB,MIA&limit=12',
    )
    expect(json.data.objects).toHaveLength(10)
    expect(json._meta.capped).toMatchObject({ cap: 10 })
    expect(json.data.has_more_results).toBe(true)
  })

  it('lists the museums with their codes, and reads the list once for the searches too', async () => {
    const g = gatewayFor()
    const before = dimu.hits('/api/owners')
    const all = await call(g, 'list_museums', '')
    const nmk = await call(g, 'list_museums', 'query=nasjonalmuseet')
    await call(g, 'search_museum_objects', 'owner=OB')
    expect(dimu.hits('/api/owners') - before).toBe(1)
    expect(all.json.data.count).toBe(8)
    expect(nmk.json.data.museums).toEqual([
      { owner: 'NMK-A', name: 'Nasjonalmuseet - Arkitektur', parent: 'NMK' },
      { owner: 'NMK-D', name: 'Nasjonalmuseet - Design', parent: 'NMK' },
      { owner: 'NMK-B', name: 'Nasjonalmuseet - Kunst', parent: 'NMK' },
      { owner: 'NMK', name: 'Nasjonalmuseet for kunst, arkitektur og design', parent: null },
    ])
    expect(nmk.json._provenance.data.source_api).toContain('api.key=***')
  })

  it('without a key: 502 upstream_not_configured naming the variable, the heritage sites still served, the source partly configured', async () => {
    const g = gatewayFor('  ')
    const before = dimu.requests.length
    for (const [operation, query] of [
      ['search_museum_objects', 'owner=NF'],
      ['list_museums', 'query=folkemuseum'],
    ] as const) {
      const { status, json } = await call(g, operation, query)
      expect([operation, status, json.error.code]).toEqual([operation, 502, 'upstream_not_configured'])
      expect(json.error.message).toBe(
        'Upstream DigitaltMuseum API (KulturIT) (dimu) needs an API key: set ALLMENNING_DIMU_API_KEY',
      )
    }
    expect(dimu.requests.length).toBe(before)
    expect((await call(g, 'search_heritage_sites', 'kommune=Oslo')).status).toBe(200)
    const health = JSON.parse((await g.handle({ method: 'GET', path: '/api/v1/health', query: '', headers: {} })).body!)
    const source = health.sources.find((s: { id: string }) => s.id === 'kulturarv')
    expect(source.not_configured).toEqual([
      { configure: 'ALLMENNING_DIMU_API_KEY', operations: ['search_museum_objects', 'list_museums'] },
    ])
  })

  it('never shows the key: not in an answer, a URL it names, an error, nor anything the gateway tells its observers', async () => {
    const heard: unknown[] = []
    const observer: GatewayObserver = {
      requestFinished: (e) => void heard.push(e),
      upstreamCallStarted: (e) => void heard.push(e),
      upstreamCallFinished: (e) => void heard.push(e),
      cacheLookup: (e) => void heard.push(e),
    }
    const errors: unknown[] = []
    const secret = 'S3cr3t-dimu-key/with+chars=='
    const extra = { observers: [observer], onError: (e: unknown) => errors.push(e) }
    const wrong = await call(gatewayFor(secret, extra), 'search_museum_objects', 'owner=NF')
    dimu.failWith(
      { status: 500, headers: { 'content-type': 'text/html' }, body: '<html>Internal Server Error</html>' },
      { times: 1 },
    )
    const failing = await call(gatewayFor(FAKE_DIMU_KEY, extra), 'search_museum_objects', 'owner=NF')
    const ok = await call(gatewayFor(FAKE_DIMU_KEY, extra), 'search_museum_objects', 'owner=NF')
    const museums = await call(gatewayFor(FAKE_DIMU_KEY, extra), 'list_museums', '')
    expect([wrong.status, failing.status, ok.status, museums.status]).toEqual([502, 502, 200, 200])
    expect(wrong.json.error.message).toMatch(
      /refused the configured API key \(HTTP 403\); check ALLMENNING_DIMU_API_KEY/,
    )
    const everything = [
      wrong.body,
      failing.body,
      ok.body,
      museums.body,
      inspect(heard, { depth: 10 }),
      inspect(errors, { depth: 10 }),
      ...errors.map((e) => (e as Error).stack ?? ''),
    ].join('\n')
    for (const key of [secret, encodeURIComponent(secret), FAKE_DIMU_KEY]) expect(everything).not.toContain(key)
    expect(heard.length).toBeGreaterThan(0)
    expect(ok.json._provenance.data.source_api).toContain('api.key=***')
  })
})

describe('the pieces', () => {
  it('write CQL2 with quotes doubled and wildcards escaped', () => {
    expect(heritageCql({})).toBeUndefined()
    expect(heritageCql({ query: "50%_o'k", kind: 'E-BYG' })).toBe(
      "kategori='E-BYG' AND (CASEI(navn) LIKE CASEI('%50\\%\\_o''k%') OR CASEI(informasjon) LIKE CASEI('%50\\%\\_o''k%'))",
    )
  })

  it('read points, locality numbers and DigitaltMuseum coordinates', () => {
    expect(pointOf({ type: 'Point', coordinates: [10.75, 59.91] })).toEqual({ lat: 59.91, lon: 10.75 })
    expect(
      pointOf({
        type: 'MultiPolygon',
        coordinates: [
          [
            [
              [10, 59],
              [12, 59],
              [12, 61],
              [10, 61],
              [10, 59],
            ],
          ],
        ],
      }),
    ).toEqual({ lat: 60, lon: 11 })
    expect(pointOf({ type: 'Point', coordinates: [200, 59] })).toBeNull()
    expect(pointOf(null)).toBeNull()
    expect([siteNumberOf('100201-1'), siteNumberOf('100201'), siteNumberOf('abc')]).toEqual([100201, 100201, null])
    expect(coordinateOf('59.74293070000000000000, 10.20450000000005200000')).toEqual({ lat: 59.742931, lon: 10.2045 })
    expect(coordinateOf('0, 0')).toBeNull()
  })
})
