import * as v from 'valibot'
import { osloDate } from '../shared/oslo-time.js'
import { toGeoJson } from './area-geometry.js'
import type { VernFeature } from './arcgis-answer.js'
import { areaKm2 } from './polygon-measures.js'
import { iucnCategory, protectionFormText } from './protection-forms.js'
import { representativePoint } from './representative-point.js'

const nullableText = (what: string) => v.pipe(v.nullable(v.string()), v.description(what))
const position = v.pipe(
  v.array(v.number()),
  v.length(2, 'a position is [lon, lat]'),
  v.description('[lon, lat], WGS84'),
)

/** A GeoJSON Polygon or MultiPolygon in WGS84, longitude first. */
export const areaGeometrySchema = v.variant('type', [
  v.object({ type: v.literal('Polygon'), coordinates: v.array(v.array(position)) }),
  v.object({ type: v.literal('MultiPolygon'), coordinates: v.array(v.array(v.array(position))) }),
])

/** The fields of a protected area, in every operation of the source. */
export const protectedAreaFields = {
  id: v.pipe(v.string(), v.description("Naturbase's id of the area (naturvernId), e.g. VV00000972")),
  name: nullableText('Short name (navn), e.g. "Østensjøvannet"'),
  official_name: nullableText('Official name (offisieltNavn), e.g. "Østensjøvannet naturreservat"'),
  protection_form: nullableText(
    'Form of protection as Naturbase codes it (verneform), e.g. Naturreservat, Landskapsvernomraade',
  ),
  protection_form_text: nullableText('The form of protection in Norwegian words, e.g. "landskapsvernområde"'),
  iucn_category: nullableText('IUCN management category: Ia, Ib, II, III, IV, V or VI'),
  iucn_text: nullableText('IUCN\'s name of the category, e.g. "Habitat/species management area"'),
  protection_date: nullableText('When the area was protected (vernedato), an ISO 8601 date in Norwegian time'),
  municipality: nullableText('The municipality or municipalities, as Naturbase writes them (kommune)'),
  municipalities: v.pipe(
    v.array(v.object({ name: v.string(), number: v.nullable(v.string()) })),
    v.description('The municipalities, one by one, with the number where Naturbase gives it'),
  ),
  management_authority: nullableText('Who manages the area (forvaltningsmyndighet), where Naturbase gives it'),
  area_km2: v.pipe(
    v.nullable(v.number()),
    v.description('Area in km², computed from the outline the service sent (holes taken out)'),
  ),
  fact_sheet_url: nullableText("Naturbase's fact sheet of the area (faktaark)"),
  regulation_url: nullableText('The protection regulation (verneforskrift) on Lovdata'),
  lat: v.pipe(
    v.nullable(v.number()),
    v.description('WGS84 latitude of a point INSIDE the area (its pole of inaccessibility), not a centroid'),
  ),
  lon: v.pipe(v.nullable(v.number()), v.description('WGS84 longitude of the point inside the area')),
  point_method: v.pipe(
    v.nullable(v.picklist(['pole_of_inaccessibility', 'scanline'])),
    v.description(
      'How the point was found: pole_of_inaccessibility (farthest inside from every edge), or scanline for a sliver',
    ),
  ),
  geometry: v.pipe(
    v.nullable(areaGeometrySchema),
    v.description('The outline as GeoJSON (WGS84, lon/lat), or null when not asked for'),
  ),
  geometry_tolerance_m: v.pipe(
    v.nullable(v.number()),
    v.description(
      'How far the outline may stray from the register’s (the service generalised it by this many metres); null when whole',
    ),
  ),
}

const areaSchema = v.object(protectedAreaFields)
/** One protected area as the source answers it. */
export type ProtectedArea = v.InferOutput<typeof areaSchema>

/** Metres in a degree of latitude: a generalisation asked in degrees is told in metres. */
export const METRES_PER_DEGREE = 111_320

/** The municipalities of `kommune`: "Oslo", "Vefsn (1824),Grane (1825)", "Bærum, Asker". */
function municipalitiesOf(written: string | null | undefined): { name: string; number: string | null }[] {
  return (written ?? '')
    .split(/\s*[,;]\s*/)
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const numbered = /^(.*?)\s*\((\d{3,4})\)$/.exec(part)
      return numbered ? { name: numbered[1]!, number: numbered[2]!.padStart(4, '0') } : { name: part, number: null }
    })
}

/**
 * The date an area was protected, as an ISO date. Esri JSON gives milliseconds since 1970 in
 * UTC; Norwegian dates are stored as midnight in Norway, which is 22:00 or 23:00 UTC the day
 * before, so the day is read in Norwegian time. A `yyyymmdd` text (Naturbase's own export) is read too.
 */
function protectionDate(value: number | string | null | undefined): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? osloDate(value) : null
  if (typeof value !== 'string') return null
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(value.trim())
  if (compact) return `${compact[1]}-${compact[2]}-${compact[3]}`
  const iso = /^(\d{4}-\d{2}-\d{2})/.exec(value.trim())
  return iso ? iso[1]! : null
}

const url = (value: string | null | undefined) => (value && /^https?:\/\//i.test(value.trim()) ? value.trim() : null)
const blankToNull = (value: string | null | undefined) => (value && value.trim() !== '' ? value.trim() : null)
const round = (n: number, decimals: number) => Math.round(n * 10 ** decimals) / 10 ** decimals

/**
 * A protected area from one feature of the layer: attributes made readable, a point inside
 * it, its area, and its outline as GeoJSON when `withGeometry`.
 *
 * @example
 * const square = [[10, 60], [10, 60.01], [10.01, 60.01], [10.01, 60], [10, 60]] as [number, number][]
 * const feature = { attributes: { naturvernId: 'VV00000972', verneform: 'Naturreservat' }, polygons: [[square]] }
 * const area = protectedArea(feature, { withGeometry: true, toleranceM: 20 })
 * area.lat // a latitude inside the area
 */
export function protectedArea(
  feature: VernFeature,
  options: { withGeometry: boolean; toleranceM: number | null },
): ProtectedArea {
  const a = feature.attributes
  const point = representativePoint(feature.polygons)
  const iucn = iucnCategory(a.iucn)
  const form = blankToNull(a.verneform)
  return {
    id: a.naturvernId,
    name: blankToNull(a.navn),
    official_name: blankToNull(a.offisieltNavn),
    protection_form: form,
    protection_form_text: form === null ? null : protectionFormText(form),
    iucn_category: iucn?.category ?? null,
    iucn_text: iucn?.text ?? null,
    protection_date: protectionDate(a.vernedato),
    municipality: blankToNull(a.kommune),
    municipalities: municipalitiesOf(a.kommune),
    management_authority: blankToNull(a.forvaltningsmyndighet),
    area_km2: feature.polygons.length > 0 ? round(areaKm2(feature.polygons), 3) : null,
    fact_sheet_url: url(a.faktaark) ?? `https://faktaark.naturbase.no/?id=${encodeURIComponent(a.naturvernId)}`,
    regulation_url: url(a.verneforskrift),
    lat: point ? round(point.lat, 6) : null,
    lon: point ? round(point.lon, 6) : null,
    point_method: point?.method ?? null,
    geometry: options.withGeometry ? toGeoJson(feature.polygons) : null,
    geometry_tolerance_m: options.toleranceM,
  }
}
