import * as v from 'valibot'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, fakeReply, type FakeUpstream, type TestGateway } from '@allmenning/core/testing'
import { createRequestBudget, type RequestBudget } from '../shared/request-budget.js'
import { addDays, osloDate } from '../shared/oslo-time.js'
import { startFakeKommuneinfo } from '../shared/testing/fake-kommuneinfo.js'
import { artskart } from './index.js'
import { observationSchema } from './observation-rows.js'
import { artskartListRoute, artskartPaths, recordedObservations, startFakeArtskart } from './testing/fake-artskart.js'

let fake: FakeUpstream
let kommuneinfo: FakeUpstream
let gateway: TestGateway

const generous = () => createRequestBudget({ requests: 1000, perMs: 1000, maxWaitMs: 0 })
const gatewayFor = (requestBudget: RequestBudget = generous()) =>
  createTestGateway({
    sources: artskart({ requestBudget }),
    upstreams: { artskart: fake, kartverket_kommuneinfo: kommuneinfo },
  })
const may = { from_date: '2026-05-01', to_date: '2026-05-07' }
type Row = v.InferOutput<typeof observationSchema>
const names = (rows: Row[]) => rows.map((row) => row.name)

/** The box a gmWktPolygon in Web Mercator metres covers, in degrees. */
function boxOf(wkt: string) {
  const numbers = /POLYGON\(\((.+)\)\)/
    .exec(wkt)![1]!
    .split(',')
    .map((pair) => pair.split(' ').map(Number))
  const lon = (x: number) => (x / 20_037_508.34) * 180
  const lat = (y: number) => (Math.atan(Math.exp((y / 20_037_508.34) * Math.PI)) * 360) / Math.PI - 90
  return {
    south: Math.min(...numbers.map((p) => lat(p[1]!))),
    north: Math.max(...numbers.map((p) => lat(p[1]!))),
    west: Math.min(...numbers.map((p) => lon(p[0]!))),
    east: Math.max(...numbers.map((p) => lon(p[0]!))),
  }
}

beforeAll(async () => {
  ;[fake, kommuneinfo] = await Promise.all([startFakeArtskart(), startFakeKommuneinfo()])
  gateway = gatewayFor()
})
afterAll(() => Promise.all([fake.close(), kommuneinfo.close()]))
afterEach(() => expect(gateway.errors).toEqual([]))

describe('find_observations in a municipality', () => {
  it("answers the municipality's observations with numbers for coordinates, in the public gateway's row fields", async () => {
    const { status, json } = await gateway.call('artskart', 'find_observations', {
      municipality: '301',
      ...may,
      limit: 100,
    })
    expect(status).toBe(200)
    const rows = json.data.observations as Row[]
    expect(rows.every((row) => v.is(observationSchema, row))).toBe(true)
    expect(rows[0]).toEqual({
      id: 'NOF/so2-birds/36000001',
      obs_url: 'https://www.artsobservasjoner.no/Sighting/36000001',
      name: 'blåmeis',
      scientific_name: 'Cyanistes caeruleus',
      taxon_id: 3535,
      collected_date: '2026-05-01',
      collector: 'Kari Nordmann',
      individual_count: '1',
      locality: 'Slottsparken',
      municipality: 'Oslo',
      county: 'Oslo',
      latitude: 59.91742,
      longitude: 10.73105,
      precision_m: 25,
      dataset: 'Artsobservasjoner',
      institution: 'Norsk botanisk forening / Norsk entomologisk forening / NOF',
      distance_km: null,
      coordinate_note: null,
    })
    // Oldest first, as Artskart lists them; every row in Oslo, with a real position.
    expect(rows.map((row) => row.collected_date)).toEqual([...rows.map((row) => row.collected_date)].sort())
    expect(
      rows.every(
        (row) => row.municipality === 'Oslo' && typeof row.latitude === 'number' && typeof row.longitude === 'number',
      ),
    ).toBe(true)
    expect(json.data).toMatchObject({
      count: 12,
      total: 17,
      from_date: '2026-05-01',
      to_date: '2026-05-07',
      municipality: { number: '0301', name: 'Oslo', county: 'Oslo' },
      skipped: { no_usable_position: 3, outside_area: 2 },
      has_more_results: false,
    })
  })

  it('asks Artskart for the days and for the box Kartverket gives the municipality, in Web Mercator metres', async () => {
    await gateway.call('artskart', 'find_observations', { municipality: '0301', ...may, page_size: 500 })
    const sent = fake.received.at(-1)!.query
    expect(sent.get('pageIndex')).toBe('0')
    expect(sent.get('pageSize')).toBe('500')
    expect(sent.get('FromDate')).toBe('2026-05-01')
    expect(sent.get('ToDate')).toBe('2026-05-07')
    expect(sent.get('taxons')).toBeNull()
    const box = boxOf(sent.get('gmWktPolygon')!)
    // kommuneinfo's box for Oslo (fixture): 10.489131..10.951338 E, 59.809418..60.135418 N.
    expect(box.west).toBeCloseTo(10.489131, 5)
    expect(box.east).toBeCloseTo(10.951338, 5)
    expect(box.south).toBeCloseTo(59.809418, 5)
    expect(box.north).toBeCloseTo(60.135418, 5)
    expect(kommuneinfo.received.at(-1)!.query.get('utkoordsys')).toBe('4258')
  })

  it('reads decimal commas and points, dates with a time, and the links a row has', async () => {
    const { json } = await gateway.call('artskart', 'find_observations', { municipality: '301', ...may })
    const byName = new Map((json.data.observations as Row[]).map((row) => [row.name, row]))
    expect(byName.get('kjøttmeis')).toMatchObject({ latitude: 59.92631, longitude: 10.76204 })
    expect(byName.get('gråmåke')).toMatchObject({ collected_date: '2026-05-02', individual_count: '14' })
    expect(byName.get('hvitveis')).toMatchObject({ individual_count: null, precision_m: 10 })
    // A javascript: link never travels on; an empty ObsUrl falls back to DetailUrl.
    expect(byName.get('rødstrupe')!.obs_url).toBeNull()
    expect(byName.get('svarttrost')!.obs_url).toBe('https://www.artsobservasjoner.no/Sighting/36000012')
    expect(byName.get('løvetann')).toMatchObject({
      obs_url: 'https://www.gbif.org/occurrence/5230011',
      dataset: 'Karplantefunn Oslo',
      institution: 'Naturhistorisk museum, Universitetet i Oslo',
    })
    expect(byName.get('kanadagås')!.individual_count).toBe('ca 30')
  })

  it('swaps back a latitude and longitude given the other way round, and says so', async () => {
    const { json } = await gateway.call('artskart', 'find_observations', { municipality: '301', ...may })
    const mallard = (json.data.observations as Row[]).find((row) => row.name === 'stokkand')!
    expect(mallard).toMatchObject({ latitude: 59.91331, longitude: 10.74124 })
    expect(mallard.coordinate_note).toMatch(/other way round; swapped back/)
    expect((json.data.observations as Row[]).filter((row) => row.coordinate_note !== null)).toHaveLength(1)
  })

  it('leaves out rows at (0, 0), without or with unreadable coordinates, and rows of the neighbours in the box, counting them', async () => {
    const { json } = await gateway.call('artskart', 'find_observations', { municipality: '301', ...may })
    const found = names(json.data.observations)
    for (const dropped of ['ringdue', 'skjære', 'kråke', 'gulspurv', 'fiskemåke', 'tjeld', 'sidensvans'])
      expect(found).not.toContain(dropped)
    expect(json.data.skipped).toEqual({ no_usable_position: 3, outside_area: 2 })
  })

  it('takes the municipality as 0301, 301 or its name, and echoes the number', async () => {
    const answers = await Promise.all(
      ['0301', '301', 'Oslo', ' oslo '].map((municipality) =>
        gateway.call('artskart', 'find_observations', { municipality, ...may }),
      ),
    )
    for (const { status, json } of answers) {
      expect(status).toBe(200)
      expect(json.data.municipality.number).toBe('0301')
      expect(json.data.count).toBe(12)
    }
    expect(answers[1]!.json.parameters.municipality).toBe('0301')
    expect(answers[2]!.json.parameters.municipality).toBe('Oslo')
  })

  it('finds a municipality by any of its names, and the observations of another', async () => {
    const tana = await gateway.call('artskart', 'find_observations', { municipality: 'Tana', ...may })
    expect(tana.status).toBe(200)
    expect(tana.json.data.municipality).toEqual({ number: '5636', name: 'Tana', county: 'Finnmark' })
    expect(tana.json.data.observations).toEqual([])
    const bergen = await gateway.call('artskart', 'find_observations', { municipality: '4601', ...may })
    expect(names(bergen.json.data.observations)).toEqual(['tjeld', 'gråhegre'])
  })

  it('answers 404 for a number or name Kartverket does not know, and 400 for a name two municipalities share', async () => {
    const unknown = await gateway.call('artskart', 'find_observations', { municipality: '0399', ...may })
    expect(unknown.status).toBe(404)
    expect(unknown.json.error).toMatchObject({
      code: 'entity_not_found',
      message: "No municipality numbered 0399 in Kartverket's register",
    })
    const nameless = await gateway.call('artskart', 'find_observations', { municipality: 'Atlantis', ...may })
    expect(nameless.status).toBe(404)
    const heroy = await gateway.call('artskart', 'find_observations', { municipality: 'Herøy', ...may })
    expect(heroy.status).toBe(400)
    expect(heroy.json.error.details).toEqual([
      {
        parameter: 'municipality',
        problem:
          'names 2 municipalities (1515 Herøy (Møre og Romsdal), 1818 Herøy (Nordland)); give the number of the one meant',
        rule: 'ambiguous',
      },
    ])
    expect(fake.received.filter((r) => r.query.get('FromDate') === 'never')).toEqual([])
  })

  it('rejects bad numbers and dates with a 400 naming the parameter, without asking Artskart', async () => {
    const before = fake.requests.length
    const short = await gateway.call('artskart', 'find_observations', { municipality: '12', ...may })
    expect(short.status).toBe(400)
    expect(short.json.error.details[0]).toMatchObject({
      parameter: 'municipality',
      problem: 'must be a municipality number of 3 or 4 digits (301 or 0301), or a name',
    })
    const reversed = await gateway.call('artskart', 'find_observations', {
      municipality: '301',
      from_date: '2026-05-07',
      to_date: '2026-05-01',
    })
    expect(reversed.status).toBe(400)
    expect(reversed.json.error.details).toEqual([
      { parameter: 'to_date', problem: 'must not be before from_date (2026-05-07)', rule: 'min_value' },
    ])
    const impossible = await gateway.call('artskart', 'find_observations', {
      municipality: '301',
      from_date: '2026-02-30',
    })
    expect(impossible.status).toBe(400)
    expect(impossible.json.error.details[0]).toMatchObject({
      parameter: 'from_date',
      problem: 'must be a real calendar date',
    })
    const tooBig = await gateway.call('artskart', 'find_observations', { municipality: '301', page_size: 8000 })
    expect(tooBig.json.error.details[0]).toMatchObject({ parameter: 'page_size', rule: 'max_value' })
    expect(fake.requests.length).toBe(before)
  })

  it('searches the last seven days up to today in Norway when no days are given', async () => {
    const { json } = await gateway.call('artskart', 'find_observations', { municipality: '301' })
    const today = osloDate()
    expect(json.data).toMatchObject({ from_date: addDays(today, -7), to_date: today })
    expect(fake.received.at(-1)!.query.get('FromDate')).toBe(addDays(today, -7))
    const past = await gateway.call('artskart', 'find_observations', { municipality: '301', to_date: '2026-05-07' })
    expect(past.json.data).toMatchObject({ from_date: '2026-04-30', to_date: '2026-05-07' })
  })

  it('asks for one taxon', async () => {
    const { json } = await gateway.call('artskart', 'find_observations', { municipality: '301', ...may, taxon: 3535 })
    expect(fake.received.at(-1)!.query.get('taxons')).toBe('3535')
    expect(names(json.data.observations)).toEqual(['blåmeis'])
  })

  it('pages Artskart with its own pages, reading no further than the page asked for needs', async () => {
    const local = gatewayFor()
    const before = fake.requests.length
    const first = await local.call('artskart', 'find_observations', {
      municipality: '301',
      ...may,
      page_size: 10,
      limit: 5,
    })
    expect(first.json.data.observations).toHaveLength(5)
    expect(first.json.data.has_more_results).toBe(true)
    // Page 0 holds five Oslo rows: one more row is needed to know there are more, so page 1 is read too.
    expect(fake.requests.length - before).toBe(2)
    expect(fake.received.slice(-2).map((r) => [r.query.get('pageIndex'), r.query.get('pageSize')])).toEqual([
      ['0', '10'],
      ['1', '10'],
    ])
    const fresh = fake.requests.length
    const few = await gatewayFor().call('artskart', 'find_observations', {
      municipality: '301',
      ...may,
      page_size: 10,
      limit: 4,
    })
    expect(few.json.data).toMatchObject({ has_more_results: true })
    expect(fake.requests.length - fresh).toBe(1)
    const second = await local.call('artskart', 'find_observations', {
      municipality: '301',
      ...may,
      page_size: 10,
      limit: 5,
      offset: 5,
    })
    expect(second.json.data.observations.map((row: Row) => row.id)).not.toContain(first.json.data.observations[4].id)
    const all = await local.call('artskart', 'find_observations', {
      municipality: '301',
      ...may,
      page_size: 10,
      limit: 11,
    })
    expect(all.json.data).toMatchObject({ count: 12, has_more_results: true })
    expect(all.json._raw_values).toMatchObject({ artskart_rows_read: 17, artskart_pages_read: 2 })
    expect(all.json._meta.capped).toBeUndefined()
  })

  it('credits Artsdatabanken and Kartverket, and names the Artskart page the answer came from', async () => {
    const { json } = await gateway.call('artskart', 'find_observations', { municipality: '301', ...may })
    expect(json._provenance.data.source_api).toMatch(new RegExp(`^${fake.baseUrl}${artskartPaths.list}\\?pageIndex=0&`))
    const upstreams = json._provenance.upstreams as { id: string; publisher: string; license: string }[]
    expect(upstreams.find((u) => u.id === 'artskart')).toMatchObject({
      license: 'CC BY 4.0 (most datasets; each dataset keeps its own terms)',
    })
    expect(upstreams.find((u) => u.id === 'artskart')!.publisher).toMatch(
      /^Artsdatabanken .*credit the dataset and institution/,
    )
    expect(upstreams.find((u) => u.id === 'kartverket_kommuneinfo')).toMatchObject({ license: 'CC BY 4.0' })
  })

  it('looks a municipality up once for many questions', async () => {
    const local = gatewayFor()
    const before = kommuneinfo.hits('/kommuner/{number}')
    await local.call('artskart', 'find_observations', { municipality: '301', ...may })
    await local.call('artskart', 'find_observations', {
      municipality: '0301',
      from_date: '2026-05-02',
      to_date: '2026-05-07',
    })
    await local.call('artskart', 'find_observations', {
      municipality: 'Oslo',
      from_date: '2026-05-03',
      to_date: '2026-05-07',
    })
    expect(kommuneinfo.hits('/kommuner/{number}') - before).toBe(1)
  })
})

describe('find_observations when Artskart has more than one answer reads', () => {
  const full = (pageSize: number, pageIndex: number) =>
    Array.from({ length: pageSize }, (_, i) => ({
      ...recordedObservations[0],
      Id: `NOF/so2-birds/${pageIndex * pageSize + i}`,
      CatalogNumber: String(pageIndex * pageSize + i),
    }))
  afterAll(() => fake.route(artskartPaths.list, artskartListRoute()))

  it('reads four pages at most and says so in _meta.capped, with the limit asked for', async () => {
    fake.route(artskartPaths.list, (url) => {
      const pageSize = Number(url.searchParams.get('pageSize'))
      const pageIndex = Number(url.searchParams.get('pageIndex'))
      return fakeReply.json({
        TotalCount: 5000,
        PageIndex: pageIndex,
        PageSize: pageSize,
        TotalPages: 500,
        Observations: full(pageSize, pageIndex),
      })
    })
    const before = fake.requests.length
    const { status, json } = await gatewayFor().call('artskart', 'find_observations', {
      municipality: '301',
      ...may,
      page_size: 10,
      limit: 2000,
    })
    expect(status).toBe(200)
    expect(fake.requests.length - before).toBe(4)
    expect(json.data).toMatchObject({ count: 40, total: 5000, has_more_results: false })
    expect(json._meta.capped).toMatchObject({ cap: 40, requested_limit: 2000 })
    expect(json._meta.capped.reason).toMatch(/oldest observations first and has 5000 .* first 4 pages of 10 rows/)
  })

  it('is not capped when the page asked for is filled before the last page read', async () => {
    const { json } = await gatewayFor().call('artskart', 'find_observations', {
      municipality: '301',
      ...may,
      page_size: 10,
      limit: 15,
    })
    expect(json.data).toMatchObject({ count: 20, has_more_results: true })
    expect(json._meta.capped).toBeUndefined()
  })
})

describe('find_observations_nearby', () => {
  it('answers the observations within the radius with their distance, and asks Artskart for the box around it', async () => {
    const { status, json } = await gateway.call('artskart', 'find_observations_nearby', {
      lat: 59.9139,
      lon: 10.7522,
      radius_km: 1,
      ...may,
    })
    expect(status).toBe(200)
    const rows = json.data.observations as Row[]
    // Aker brygge (gråmåke) lies 1.1 km away: in the box Artskart is asked for, outside the circle.
    expect(names(rows).sort()).toEqual(['løvetann', 'stokkand', 'svarttrost'])
    expect(json.data.skipped.outside_area).toBeGreaterThan(0)
    expect(rows.every((row) => row.distance_km !== null && row.distance_km <= 1)).toBe(true)
    expect(json.data.radius_km).toBe(1)
    expect(json.parameters).toMatchObject({ lat: 59.914, lon: 10.752 })
    const box = boxOf(fake.received.at(-1)!.query.get('gmWktPolygon')!)
    expect(box.north - box.south).toBeCloseTo(2 / 111.32, 4)
    expect(kommuneinfo.received.length).toBeGreaterThan(0)
  })
})

describe('when an upstream fails', () => {
  it.each([
    ['an error status', fakeReply.status(500, '{"Message":"An error has occurred."}'), 'upstream_error'],
    [
      'an ASP.NET error object with status 200',
      fakeReply.json({ Message: 'An error has occurred.' }),
      'upstream_invalid_response',
    ],
    ['an HTML page', fakeReply.html('<html><body>Vedlikehold</body></html>'), 'upstream_invalid_response'],
    ['rows that are not objects', fakeReply.json({ TotalCount: 1, Observations: ['x'] }), 'upstream_invalid_response'],
  ])('answers %s from Artskart with a 502 naming it', async (_name, reply, code) => {
    fake.failWith(reply)
    try {
      const { status, json, body } = await gatewayFor().call('artskart', 'find_observations', {
        municipality: '301',
        ...may,
      })
      expect(status).toBe(502)
      expect(json.error).toMatchObject({ code, upstream: 'artskart' })
      expect(json.error.message).toMatch(/^Upstream Artsdatabanken Artskart \(artskart\) /)
      expect(body).not.toMatch(/\.ts:\d+/)
    } finally {
      fake.failWith(undefined)
    }
  })

  it('answers a failing kommuneinfo with a 502 naming Kartverket, and never asks Artskart', async () => {
    kommuneinfo.failWith(fakeReply.status(503, 'Service Unavailable'))
    const before = fake.requests.length
    try {
      const { status, json } = await gatewayFor().call('artskart', 'find_observations', {
        municipality: '0301',
        ...may,
      })
      expect(status).toBe(502)
      expect(json.error).toMatchObject({ upstream: 'kartverket_kommuneinfo' })
      expect(fake.requests.length).toBe(before)
    } finally {
      kommuneinfo.failWith(undefined)
    }
  })

  it('keeps to the request budget: a call past it is a 502 naming Artskart, and Artskart is not called', async () => {
    const strict = gatewayFor(createRequestBudget({ requests: 1, perMs: 60_000, maxWaitMs: 0 }))
    expect((await strict.call('artskart', 'find_observations', { municipality: '301', ...may })).status).toBe(200)
    const before = fake.requests.length
    const { status, json } = await strict.call('artskart', 'find_observations', {
      municipality: '301',
      from_date: '2026-05-02',
      to_date: '2026-05-07',
    })
    expect(status).toBe(502)
    expect(json.error.message).toMatch(
      /^Upstream Artsdatabanken Artskart \(artskart\) was not called: the gateway keeps to 1 requests per 60 s/,
    )
    expect(fake.requests.length).toBe(before)
  })
})
