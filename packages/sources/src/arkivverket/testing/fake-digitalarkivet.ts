import { readFileSync } from 'node:fs'
import { fakeReply, startFakeUpstream, type FakeReply, type FakeUpstream } from '@allmenning/core/testing'
import { distanceKm } from '../../shared/wgs84-point.js'

/**
 * Nineteen dwelling places of the 1910 census (our own data) in the shape Digitalarkivet's
 * `search_property_geo` answers, as seen in a trimmed real answer of 2026-10 and in the public
 * gateway's captured rows: `{count, results[], total_found}`, records with `efid` (bf… farms,
 * gf… Kristiania addresses), `gaardsnavn_gateadr`, `bruksnavn`, `gaardsnr`/`bruksnr` as text,
 * `fylke`, `kommune_sokn`, `hendelsesdato`, `tittel`/`tittel_en`, `coordinates{lat,lon}` as
 * numbers and left out where Arkivverket has not mapped the place (two addresses, one farm), two
 * addresses at the same stand-in point far from their street (as the capture shows for
 * Kirkegaardsgate), and `persons[]` (`id`, `fornavn`, `slektsnavn`, `kjonn`, `familiestilling`,
 * `sivilstand`, `yrke`, `fodselsaar`, `fodested`). The Norwegian `tittel` is not seen in a
 * capture: it is written to what the public gateway answers as a row's `source`.
 */
export const censusRecordsFixture = readFileSync(
  new URL('./fixtures/census-1910-records.json', import.meta.url),
  'utf8',
)

type CensusRecord = Record<string, unknown> & {
  efid: string
  persons?: Record<string, unknown>[]
  coordinates?: { lat: number; lon: number }
}

/** The fake's census records. */
export const censusRecords: CensusRecord[] = (JSON.parse(censusRecordsFixture) as { results: CensusRecord[] }).results

/** What the fake answers a parameter it cannot read (the API's own error body is not seen). */
const badRequest = (message: string): FakeReply =>
  fakeReply.json({ error: message }, { status: 400, contentType: 'application/json' })

/** The words of a record a name search looks in: its names, place and residents. */
function wordsOf(record: CensusRecord): string[] {
  const texts = [record.gaardsnavn_gateadr, record.bruksnavn, record.kommune_sokn, record.fylke]
  for (const person of record.persons ?? []) texts.push(person.fornavn, person.patronymikon, person.slektsnavn)
  return texts
    .filter((t): t is string => typeof t === 'string')
    .flatMap((t) => t.toLowerCase().split(/[\s,]+/))
    .filter(Boolean)
}

/** A search word as the API reads it: whole words, `*` standing for any letters (modelled; the API's matching is not seen). */
const wordPattern = (word: string) =>
  new RegExp(
    `^${word
      .toLowerCase()
      .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
      .replaceAll('*', '.*')}$`,
  )

/** Options of {@link startFakeDigitalarkivet}. */
export interface FakeDigitalarkivetOptions {
  /** The records served; the fixture's by default. */
  records?: CensusRecord[]
  /** The offline demo's rule: an id the records lack is answered with the first record under that id, as the real archive would have one. */
  anyPlausibleId?: boolean
}

/**
 * The census search as the fake plays it. `s` keeps the records in which every word of it is a
 * word of the place's names or residents (`*` a wildcard); `latitude`/`longitude` keep the mapped
 * records within `precision` metres, and without `precision` none (the API's documented example
 * without one answered `count 0`); `limit` (20 when left out, not seen) and `page` (from 1) page
 * them; `include_persons=1` keeps the residents, which are left out otherwise.
 *
 * @example
 * searchCensusRecords(censusRecords, new URL('http://fake/search_property_geo?s=Berg*&limit=5'))
 */
export function searchCensusRecords(records: CensusRecord[], url: URL): FakeReply {
  const q = url.searchParams
  const s = q.get('s')?.trim() ?? ''
  const lat = q.get('latitude')
  const lon = q.get('longitude')
  const precision = q.get('precision')
  const limit = Number(q.get('limit') ?? 20)
  const page = Number(q.get('page') ?? 1)
  if (!Number.isInteger(limit) || limit < 1 || !Number.isInteger(page) || page < 1)
    return badRequest('limit and page must be positive whole numbers')
  if (
    (lat === null) !== (lon === null) ||
    (lat !== null && (!Number.isFinite(Number(lat)) || !Number.isFinite(Number(lon))))
  ) {
    return badRequest('latitude and longitude must be given together, as numbers')
  }
  let found = s === '' && lat === null ? [] : records
  if (s !== '') {
    const patterns = s.split(/\s+/).map(wordPattern)
    found = found.filter((record) => {
      const words = wordsOf(record)
      return patterns.every((pattern) => words.some((word) => pattern.test(word)))
    })
  }
  if (lat !== null) {
    const radiusKm = precision === null ? 0 : Number(precision) / 1000
    const at = { lat: Number(lat), lon: Number(lon) }
    found = found.filter(
      (record) =>
        record.coordinates !== undefined && precision !== null && distanceKm(at, record.coordinates) <= radiusKm,
    )
  }
  const withPersons = q.get('include_persons') === '1'
  const results = found.slice((page - 1) * limit, page * limit).map((record) => {
    if (withPersons) return record
    const { persons: _persons, ...rest } = record
    return rest
  })
  return fakeReply.json(
    { count: found.length, results, total_found: found.length },
    { contentType: 'application/json' },
  )
}

/** The apartment id the fake gives a town address's one apartment: `lf` and the address's digits. */
export const apartmentIdOf = (efid: string) => `lf${efid.slice(2)}`

/**
 * One record as the fake's `property/{id}` answers it (not seen in a capture: written to what
 * public clients read, `property` with its `id`, `persons`, and `apartments` for a town address,
 * each apartment an id of its own that `property/{id}` answers with its residents).
 *
 * @example
 * censusPropertyAnswer(censusRecords, 'bf01036372000241')
 */
export function censusPropertyAnswer(records: CensusRecord[], id: string, anyPlausibleId = false): FakeReply {
  const apartmentOf = records.find((record) => apartmentIdOf(record.efid) === id)
  if (apartmentOf) {
    return fakeReply.json(
      {
        property: { id, leilighetsnummer: '1', etasje: '2', husleie: '480' },
        persons: apartmentOf.persons ?? [],
        apartments: null,
      },
      { contentType: 'application/json' },
    )
  }
  let record = records.find((r) => r.efid === id)
  if (!record && anyPlausibleId && /^[bg]f\d{14}$/.test(id))
    record = { ...records.find((r) => r.efid.startsWith(id.slice(0, 2)))!, efid: id }
  if (!record) return fakeReply.json({ error: 'Not found' }, { status: 404, contentType: 'application/json' })
  const { persons, efid, ...rest } = record
  const town = efid.startsWith('gf')
  return fakeReply.json(
    {
      property: { id: efid, efid, ...rest },
      persons: town ? [] : (persons ?? []),
      apartments: town ? [{ id: apartmentIdOf(efid), leilighetsnummer: '1', etasje: '2', husleie: '480' }] : null,
    },
    { contentType: 'application/json' },
  )
}

/**
 * Digitalarkivet's 1910 census API played locally: `/search_property_geo` and `/property/{id}`
 * over the fixture's records (see {@link searchCensusRecords} and {@link censusPropertyAnswer}).
 *
 * @example
 * const fake = await startFakeDigitalarkivet()
 * createTestGateway({ sources: arkivverket(), upstreams: { digitalarkivet: fake } })
 */
export async function startFakeDigitalarkivet(options: FakeDigitalarkivetOptions = {}): Promise<FakeUpstream> {
  const records = options.records ?? censusRecords
  return startFakeUpstream({
    '/search_property_geo': (url) => searchCensusRecords(records, url),
    '/property/{id}': (_url, _req, params) => censusPropertyAnswer(records, params.id!, options.anyPlausibleId),
  })
}
