import * as v from 'valibot'
import { checkUpstreamShape } from '@allmenning/core/source'
import { heritageKindName } from './heritage-kinds.js'

const featureSchema = v.looseObject({
  type: v.optional(v.string()),
  id: v.nullish(v.union([v.string(), v.number()])),
  geometry: v.nullish(v.looseObject({ type: v.string(), coordinates: v.optional(v.unknown()) })),
  properties: v.nullish(v.record(v.string(), v.unknown())),
})
const collectionSchema = v.looseObject({
  type: v.literal('FeatureCollection'),
  features: v.array(featureSchema),
  numberMatched: v.optional(v.union([v.number(), v.string()])),
  numberReturned: v.optional(v.union([v.number(), v.string()])),
  links: v.optional(v.array(v.looseObject({ rel: v.optional(v.string()), href: v.optional(v.string()) }))),
})

/** One heritage site as Askeladden gives it through the OGC API, read into our terms. */
export interface HeritageFeature {
  /** The locality number (the digits before the dash of `100201-1`); several monuments share one. */
  siteId: number | null
  /** The feature's own id as given (`100201-1`). */
  featureId: string | null
  name: string | null
  description: string | null
  art: string | null
  kind: string | null
  kindName: string | null
  municipality: string | null
  municipalityNumber: string | null
  county: string | null
  dating: string | null
  protection: string | null
  link: string | null
  /** A point: the geometry's own, or the mean of a polygon's outer ring. */
  lat: number | null
  lon: number | null
}

/** What one page of the collection holds. */
export interface HeritagePage {
  features: HeritageFeature[]
  /** The upstream's `numberMatched`, when it gave one. */
  matched: number | null
  /** Whether the upstream linked a next page. */
  hasNext: boolean
}

/** The first of the properties present as text; Askeladden's property names differ between its collections. */
function firstText(properties: Record<string, unknown>, names: string[]): string | null {
  for (const name of names) {
    const value = properties[name]
    if (typeof value === 'string' && value.trim() !== '') return value.trim()
    if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  }
  return null
}

const isPosition = (p: unknown): p is [number, number] =>
  Array.isArray(p) &&
  p.length >= 2 &&
  typeof p[0] === 'number' &&
  typeof p[1] === 'number' &&
  Number.isFinite(p[0]) &&
  Number.isFinite(p[1])

/** Every position of a geometry's first part, however deep its nesting (Point, LineString, Polygon, Multi*). */
function firstPart(coordinates: unknown): [number, number][] {
  if (isPosition(coordinates)) return [coordinates]
  if (!Array.isArray(coordinates) || coordinates.length === 0) return []
  if (coordinates.every(isPosition)) return coordinates as [number, number][]
  return firstPart(coordinates[0])
}

/**
 * A representative WGS84 point of a GeoJSON geometry: a point as it is, else the mean of the
 * first ring or line (lon, lat order, as GeoJSON writes them). Null when there is none in range.
 *
 * @example
 * pointOf({ type: 'Polygon', coordinates: [[[10, 59], [11, 59], [11, 60], [10, 59]]] }) // { lon: 10.5, lat: 59.25 } (about)
 */
export function pointOf(
  geometry: { type: string; coordinates?: unknown } | null | undefined,
): { lat: number; lon: number } | null {
  if (!geometry) return null
  let points = firstPart(geometry.coordinates)
  // A closed ring repeats its first point last: counted once.
  if (points.length > 2 && points[0]![0] === points.at(-1)![0] && points[0]![1] === points.at(-1)![1])
    points = points.slice(0, -1)
  if (points.length === 0) return null
  const lon = points.reduce((sum, p) => sum + p[0], 0) / points.length
  const lat = points.reduce((sum, p) => sum + p[1], 0) / points.length
  if (lat < -90 || lat > 90 || lon < -180 || lon > 180) return null
  return { lat: Math.round(lat * 1e6) / 1e6, lon: Math.round(lon * 1e6) / 1e6 }
}

/**
 * The locality number of an Askeladden id: `100201-1` and `100201` are locality 100201.
 *
 * @example
 * siteNumberOf('100201-1') // 100201
 */
export function siteNumberOf(id: string | null): number | null {
  const digits = id === null ? null : /^(\d+)(?:-\d+)?$/.exec(id.trim())?.[1]
  return digits ? Number(digits) : null
}

/**
 * Reads one page of Riksantikvaren's GeoJSON into heritage features; a page that is not a
 * FeatureCollection is a 502 naming the upstream.
 *
 * @example
 * const page = parseHeritagePage(response.body, client)
 * page.features[0]?.siteId // 100201
 */
export function parseHeritagePage(body: unknown, upstream: { id: string; name: string }): HeritagePage {
  const page = checkUpstreamShape(upstream, collectionSchema, body, 'the heritage sites')
  const features = page.features.map((feature): HeritageFeature => {
    const p = feature.properties ?? {}
    const featureId =
      firstText(p, ['kulturminneId', 'enkeltminneId', 'id']) ??
      (feature.id === null || feature.id === undefined ? null : String(feature.id))
    const siteText = firstText(p, ['lokalitetsId', 'lokalitetId', 'lokalitetid'])
    const siteId = siteNumberOf(siteText) ?? siteNumberOf(featureId)
    const kind = firstText(p, ['kategori', 'kulturminneKategori'])
    const point = pointOf(feature.geometry)
    const link = firstText(p, ['linkKulturminnesok', 'link'])
    return {
      siteId,
      featureId,
      name: firstText(p, ['navn', 'tittel']),
      description: firstText(p, ['informasjon', 'beskrivelse']),
      art: firstText(p, ['art', 'kulturminneArt', 'lokalitetsart']),
      kind,
      kindName: heritageKindName(kind),
      municipality: firstText(p, ['kommune', 'kommunenavn']),
      municipalityNumber: firstText(p, ['kommunenummer']),
      county: firstText(p, ['fylke', 'fylkesnavn']),
      dating: firstText(p, ['datering', 'dateringsgruppe']),
      protection: firstText(p, ['vernestatus', 'vernetype']),
      link: link ?? (siteId !== null ? `https://kulturminnesok.no/ra/lokalitet/${siteId}` : null),
      lat: point?.lat ?? null,
      lon: point?.lon ?? null,
    }
  })
  const matched = page.numberMatched === undefined ? null : Number(page.numberMatched)
  return {
    features,
    matched: matched !== null && Number.isFinite(matched) ? matched : null,
    hasNext: (page.links ?? []).some((link) => link.rel === 'next'),
  }
}
