import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import { checkUpstreamShape, createTimedMemo, foldNorwegian, type UpstreamClient } from '@allmenning/core/source'

export { kartverketKommuneinfo } from './kommuneinfo-upstream.js'

/** The paths of kommuneinfo this module calls. */
export const KOMMUNEINFO_PATHS = { municipality: '/kommuner/{number}', search: '/sok' } as const

/** A box in WGS84 degrees. */
export interface LatLonBox {
  south: number
  west: number
  north: number
  east: number
}

/** One municipality as Kartverket describes it. */
export interface MunicipalityInfo {
  /** Four digits: `0301`. */
  number: string
  /** Its Norwegian name (`kommunenavnNorsk`), else its name. */
  name: string
  /** Every name it goes by (Norwegian, Sami, Kven), for matching other registers' spellings. */
  names: string[]
  county: string | null
  countyNumber: string | null
  /** Its bounding box (`avgrensningsboks`), when Kartverket gave one in ETRS89/WGS84 degrees. */
  box: LatLonBox | null
  /**
   * A point inside it (`punktIOmrade`, Kartverket's representative point, which lies within the
   * municipality, unlike a box's centre), in degrees; null when Kartverket gave none in degrees.
   */
  point: { lat: number; lon: number } | null
}

const text = v.nullish(v.string())
const ring = v.array(v.array(v.number()))
const municipalityPayload = v.looseObject({
  kommunenummer: v.string(),
  kommunenavn: text,
  kommunenavnNorsk: text,
  fylkesnavn: text,
  fylkesnummer: text,
  gyldigeNavn: v.nullish(v.array(v.looseObject({ navn: text }))),
  avgrensningsboks: v.nullish(
    v.looseObject({
      type: v.optional(v.string()),
      coordinates: v.array(ring),
      crs: v.nullish(v.looseObject({ properties: v.nullish(v.looseObject({ name: text })) })),
    }),
  ),
  punktIOmrade: v.nullish(
    v.looseObject({
      coordinates: v.array(v.number()),
      crs: v.nullish(v.looseObject({ properties: v.nullish(v.looseObject({ name: text })) })),
    }),
  ),
})
const searchPayload = v.looseObject({
  kommuner: v.nullish(
    v.array(v.looseObject({ kommunenummer: v.string(), kommunenavn: text, kommunenavnNorsk: text, fylkesnavn: text })),
  ),
})

/** Degrees in ETRS89 (Kartverket's default, EPSG:4258) or WGS84 differ by less than a metre. */
const DEGREE_CRS = /^(?:EPSG:|urn:ogc:def:crs:EPSG::)(?:4258|4326)$/i

function boxOf(bounds: v.InferOutput<typeof municipalityPayload>['avgrensningsboks']): LatLonBox | null {
  if (!bounds) return null
  const crs = bounds.crs?.properties?.name
  // A box in metres (had Kartverket changed its default) would be read as degrees: better none.
  if (crs && !DEGREE_CRS.test(crs)) return null
  const points = bounds.coordinates.flat().filter((p) => p.length >= 2)
  if (points.length === 0) return null
  const lons = points.map((p) => p[0]!)
  const lats = points.map((p) => p[1]!)
  const box = { south: Math.min(...lats), west: Math.min(...lons), north: Math.max(...lats), east: Math.max(...lons) }
  const plausible =
    box.south >= -90 &&
    box.north <= 90 &&
    box.west >= -180 &&
    box.east <= 180 &&
    box.south < box.north &&
    box.west < box.east
  return plausible ? box : null
}

function pointOf(
  point: v.InferOutput<typeof municipalityPayload>['punktIOmrade'],
): { lat: number; lon: number } | null {
  if (!point || point.coordinates.length < 2) return null
  const crs = point.crs?.properties?.name
  if (crs && !DEGREE_CRS.test(crs)) return null
  const [lon, lat] = point.coordinates as [number, number]
  return lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180 ? { lat, lon } : null
}

/**
 * Reads kommuneinfo's answer for one municipality.
 *
 * @example
 * parseMunicipality(body, client).name // 'Oslo'
 */
export function parseMunicipality(body: unknown, upstream: { id: string; name: string }): MunicipalityInfo {
  const m = checkUpstreamShape(upstream, municipalityPayload, body, 'the municipality')
  const name = m.kommunenavnNorsk?.trim() || m.kommunenavn?.trim() || m.kommunenummer
  const names = [name, m.kommunenavn, ...(m.gyldigeNavn ?? []).map((n) => n.navn)]
    .map((n) => n?.trim())
    .filter((n): n is string => Boolean(n))
  return {
    number: m.kommunenummer,
    name,
    names: [...new Set(names)],
    county: m.fylkesnavn?.trim() || null,
    countyNumber: m.fylkesnummer?.trim() || null,
    box: boxOf(m.avgrensningsboks),
    point: pointOf(m.punktIOmrade),
  }
}

/**
 * A name folded for comparison: lower case, Norwegian letters folded, "kommune" and every
 * space, dash and dot dropped, so `OSLO KOMMUNE`, `Aurskog Høland` and `Aurskog-Høland` meet.
 *
 * @example
 * municipalityKey('Aurskog Høland kommune') === municipalityKey('Aurskog-Høland') // true
 */
export function municipalityKey(name: string): string {
  return foldNorwegian(name.toLowerCase())
    .replace(/\bkommune\b/g, '')
    .replace(/[\s\-–.'’]/g, '')
}

/**
 * The parameter of every source that takes a municipality as the public gateway's clients
 * send it: a name (`Oslo`) or a number of 3 or 4 digits (`301`, `0301`), given on as the
 * four-digit number, or the trimmed name.
 *
 * @example
 * const parameters = { municipality: municipalityParameter('The municipality: its number (0301) or its name (Oslo)') }
 */
export function municipalityParameter(description: string) {
  return v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(60, 'must be at most 60 characters'),
    v.check(
      (s) => !/^\d+$/.test(s) || /^\d{3,4}$/.test(s),
      'must be a municipality name, or a number of 3 or 4 digits (301 or 0301)',
    ),
    v.transform((s) => municipalityNumberOf(s) ?? s),
    v.description(description),
  )
}

/**
 * A municipality number as given (`301`, `0301`) written with four digits, or undefined for a name.
 *
 * @example
 * municipalityNumberOf('301') // '0301'
 * municipalityNumberOf('Oslo') // undefined
 */
export function municipalityNumberOf(value: string): string | undefined {
  return /^\d{3,4}$/.test(value) ? value.padStart(4, '0') : undefined
}

const DAY_MS = 86_400_000

/**
 * Municipalities by number and by name from kommuneinfo, kept a day (a week when Kartverket
 * is down): municipalities change on New Year's Day at most.
 *
 * @example
 * const municipalities = createMunicipalityLookup()
 * const oslo = await municipalities.byNumber(ctx.upstream(kartverketKommuneinfo), '0301')
 */
export function createMunicipalityLookup() {
  const memo = createTimedMemo<MunicipalityInfo | null>({
    ttlMs: DAY_MS,
    staleOnErrorMs: 7 * DAY_MS,
    errorTtlMs: 30_000,
    maxEntries: 800,
  })
  // A name search is kept apart from the municipalities: the numbers it found, each described by byNumber.
  const searches = createTimedMemo<string[]>({
    ttlMs: DAY_MS,
    staleOnErrorMs: 7 * DAY_MS,
    errorTtlMs: 30_000,
    maxEntries: 800,
  })
  const byNumber = async (client: UpstreamClient, number: string): Promise<MunicipalityInfo | null> =>
    memo.get(number, async () => {
      const response = await client.getJson(`/kommuner/${encodeURIComponent(number)}`, {
        query: { utkoordsys: 4258 },
        acceptStatus: [404],
      })
      return response.status === 404 ? null : parseMunicipality(response.body, client)
    })
  return {
    byNumber,
    /** The municipalities whose name is `name` (any of its names), each described in full. */
    async byName(client: UpstreamClient, name: string): Promise<MunicipalityInfo[]> {
      const key = municipalityKey(name)
      const numbers = await searches.get(key, async () => {
        const response = await client.getJson(KOMMUNEINFO_PATHS.search, { query: { knavn: name } })
        const found = checkUpstreamShape(client, searchPayload, response.body, 'the municipality search').kommuner ?? []
        // kommuneinfo's search also finds names that only begin with the text: keep the exact ones.
        const exact = found.filter((m) =>
          [m.kommunenavnNorsk, m.kommunenavn].some((n) => n && municipalityKey(n) === key),
        )
        return [...new Set(exact.map((m) => m.kommunenummer))]
      })
      const described = await Promise.all(numbers.map((number) => byNumber(client, number)))
      return described.filter((m): m is MunicipalityInfo => m !== null)
    },
  }
}

/** What {@link createMunicipalityLookup} gives. */
export type MunicipalityLookup = ReturnType<typeof createMunicipalityLookup>

/**
 * The one municipality a `municipality` parameter names: by number (`301`, `0301`) or by name
 * (`Oslo`). An unknown number or name is a 404; a name two municipalities share (Herøy, Våler)
 * is a 400 that lists them, so the caller can give the number.
 *
 * @example
 * const lookup = createMunicipalityLookup()
 * const oslo = await resolveMunicipality(lookup, ctx.upstream(kartverketKommuneinfo), '301') // { number: '0301', name: 'Oslo', ... }
 */
export async function resolveMunicipality(
  lookup: MunicipalityLookup,
  client: UpstreamClient,
  value: string,
): Promise<MunicipalityInfo> {
  const number = municipalityNumberOf(value)
  if (number !== undefined) {
    const found = await lookup.byNumber(client, number)
    if (!found)
      throw new GatewayError(404, 'entity_not_found', `No municipality numbered ${number} in Kartverket's register`)
    return found
  }
  const found = await lookup.byName(client, value)
  if (found.length === 0) {
    const message = `No municipality named "${value}" in Kartverket's register; give its name as Kartverket writes it, or its number`
    throw new GatewayError(404, 'entity_not_found', message)
  }
  if (found.length > 1) {
    const listed = found.map((m) => `${m.number} ${m.name}${m.county ? ` (${m.county})` : ''}`).join(', ')
    const problem = `names ${found.length} municipalities (${listed}); give the number of the one meant`
    throw new GatewayError(400, 'invalid_parameter', `Invalid parameter: municipality ${problem}`, {
      details: [{ parameter: 'municipality', problem, rule: 'ambiguous' }],
    })
  }
  return found[0]!
}
