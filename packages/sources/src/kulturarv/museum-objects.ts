import * as v from 'valibot'
import { checkUpstreamShape } from '@allmenning/core/source'

const textish = v.nullish(v.union([v.string(), v.number()]))
const docSchema = v.looseObject({
  'identifier.id': textish,
  'identifier.owner': textish,
  'artifact.uuid': textish,
  'artifact.uniqueId': textish,
  'artifact.type': textish,
  'artifact.ingress.title': textish,
  'artifact.ingress.producer': textish,
  'artifact.ingress.production.fromYear': textish,
  'artifact.ingress.production.toYear': textish,
  'artifact.ingress.production.place': textish,
  'artifact.ingress.subjects': v.nullish(v.array(textish)),
  'artifact.ingress.license': v.nullish(v.union([v.array(textish), v.string()])),
  'artifact.defaultMediaIdentifier': textish,
  'artifact.hasPictures': v.nullish(v.union([v.boolean(), v.string()])),
  'artifact.coordinate': textish,
})
const searchSchema = v.looseObject({
  response: v.looseObject({
    numFound: v.union([v.number(), v.string()]),
    start: v.optional(v.union([v.number(), v.string()])),
    docs: v.array(docSchema),
  }),
})

/** One museum object from DigitaltMuseum's search, read into our terms. */
export interface MuseumObject {
  title: string | null
  identifier: string | null
  uniqueId: string | null
  uuid: string | null
  owner: string | null
  type: string | null
  producer: string | null
  fromYear: number | null
  toYear: number | null
  place: string | null
  subjects: string[]
  licenses: string[]
  mediaId: string | null
  lat: number | null
  lon: number | null
}

const str = (value: unknown): string | null =>
  typeof value === 'string'
    ? value.trim() || null
    : typeof value === 'number' && Number.isFinite(value)
      ? String(value)
      : null
const year = (value: unknown): number | null => {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^-?\d{1,4}$/.test(value.trim())
        ? Number(value)
        : NaN
  return Number.isInteger(n) ? n : null
}

/**
 * `artifact.coordinate` as DigitaltMuseum writes it, "lat, lon" with up to twenty decimals, as
 * numbers; null when absent or out of range.
 *
 * @example
 * coordinateOf('59.74293070000000000000, 10.20450000000005200000') // { lat: 59.742931, lon: 10.2045 }
 */
export function coordinateOf(value: string | null): { lat: number; lon: number } | null {
  const m = value === null ? null : /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(value)
  if (!m) return null
  const lat = Math.round(Number(m[1]) * 1e6) / 1e6
  const lon = Math.round(Number(m[2]) * 1e6) / 1e6
  if (lat < -90 || lat > 90 || lon < -180 || lon > 180 || (lat === 0 && lon === 0)) return null
  return { lat, lon }
}

/** What one page of DigitaltMuseum's search holds. */
export interface MuseumObjectPage {
  objects: MuseumObject[]
  /** `numFound`: objects matched in all. */
  matched: number
}

/**
 * Reads one page of DigitaltMuseum's Solr answer; anything else is a 502 naming the upstream.
 *
 * @example
 * const page = parseMuseumObjects(response.body, client)
 * page.objects[0]?.title // 'Stereoskopi. Interiør i ...'
 */
export function parseMuseumObjects(body: unknown, upstream: { id: string; name: string }): MuseumObjectPage {
  const answer = checkUpstreamShape(upstream, searchSchema, body, 'the museum objects')
  const objects = answer.response.docs.map((d): MuseumObject => {
    const point = coordinateOf(str(d['artifact.coordinate']))
    const license = d['artifact.ingress.license']
    return {
      title: str(d['artifact.ingress.title']),
      identifier: str(d['identifier.id']),
      uniqueId: str(d['artifact.uniqueId']),
      uuid: str(d['artifact.uuid']),
      owner: str(d['identifier.owner']),
      type: str(d['artifact.type']),
      producer: str(d['artifact.ingress.producer']),
      fromYear: year(d['artifact.ingress.production.fromYear']),
      toYear: year(d['artifact.ingress.production.toYear']),
      place: str(d['artifact.ingress.production.place']),
      subjects: (d['artifact.ingress.subjects'] ?? []).map(str).filter((s): s is string => s !== null),
      licenses: (Array.isArray(license) ? license : [license]).map(str).filter((s): s is string => s !== null),
      mediaId: str(d['artifact.defaultMediaIdentifier']),
      lat: point?.lat ?? null,
      lon: point?.lon ?? null,
    }
  })
  const matched = Number(answer.response.numFound)
  return { objects, matched: Number.isFinite(matched) ? matched : objects.length }
}

/**
 * A dating in words from the production years: one year, a span, or null.
 *
 * @example
 * datingOf(1940, 1945) // '1940–1945'
 */
export function datingOf(from: number | null, to: number | null): string | null {
  if (from === null && to === null) return null
  if (from === null || to === null || from === to) return String(from ?? to)
  return `${from}–${to}`
}
