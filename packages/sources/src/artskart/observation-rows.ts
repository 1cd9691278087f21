import * as v from 'valibot'
import { checkUpstreamShape } from '@allmenning/core/source'
import { isKnownPosition } from '../shared/nearest.js'
import type { LatLonBox } from '../shared/kommuneinfo.js'
import type { Wgs84Point } from '../shared/wgs84-point.js'
import { inBox } from './search-area.js'

/** Text, or a number Artskart may one day send as one; both read as text. */
const loose = v.nullish(v.union([v.string(), v.number()]))

/** One row of Artskart's observation list, as much of it as this source reads. */
const upstreamObservation = v.looseObject({
  Id: loose,
  Name: loose,
  ScientificName: loose,
  TaxonId: loose,
  Collector: loose,
  CollectedDate: loose,
  Count: loose,
  Locality: loose,
  Municipality: loose,
  MunicipalityId: loose,
  County: loose,
  Latitude: loose,
  Longitude: loose,
  Precision: loose,
  DatasetName: loose,
  Institution: loose,
  ObsUrl: loose,
  DetailUrl: loose,
})

/** One row of Artskart's observation list, as checked. */
export type UpstreamObservation = v.InferOutput<typeof upstreamObservation>

const listPage = v.looseObject({
  // A count is a number in every description seen; a numeric string is read too.
  TotalCount: v.union([
    v.pipe(v.number(), v.integer(), v.minValue(0)),
    v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number)),
  ]),
  Observations: v.array(upstreamObservation),
})

/** One page of Artskart's observation list. */
export interface ObservationPage {
  total: number
  observations: UpstreamObservation[]
}

/**
 * Checks one page of `observations/list`: a 502 naming Artskart when it is not
 * `{TotalCount, Observations[]}`.
 *
 * @example
 * const page = parseObservationPage(response.body, client) // { total: 1234, observations: [...] }
 */
export function parseObservationPage(body: unknown, upstream: { id: string; name: string }): ObservationPage {
  const page = checkUpstreamShape(upstream, listPage, body, 'the observation list')
  return { total: page.TotalCount, observations: page.Observations }
}

const text = (value: string | number | null | undefined): string | null => {
  if (value === null || value === undefined) return null
  const trimmed = String(value).trim()
  return trimmed === '' ? null : trimmed
}

/**
 * A coordinate as Artskart writes it: a string with a decimal point or a decimal comma
 * (`"59,91234"`), or a number; null for anything else (empty, two separators, text).
 *
 * @example
 * parseDecimal('59,91234') // 59.91234
 * parseDecimal('59.9.1') // null
 */
export function parseDecimal(value: string | number | null | undefined): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  const raw = text(value)
  if (raw === null || !/^[-+]?\d+(?:[.,]\d+)?$/.test(raw)) return null
  return Number(raw.replace(',', '.'))
}

/**
 * The date an observation was made, `YYYY-MM-DD`, from Artskart's `dd.mm.yyyy` (sometimes
 * with a time after it) or an ISO date; null when it is neither.
 *
 * @example
 * collectedDate('07.05.2026') // '2026-05-07'
 * collectedDate('2026-05-07T00:00:00') // '2026-05-07'
 */
export function collectedDate(value: string | number | null | undefined): string | null {
  const raw = text(value)
  if (raw === null) return null
  const norwegian = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?!\d)/.exec(raw)
  const isoDate = /^(\d{4})-(\d\d)-(\d\d)(?!\d)/.exec(raw)
  const [year, month, day] = norwegian
    ? [norwegian[3]!, norwegian[2]!.padStart(2, '0'), norwegian[1]!.padStart(2, '0')]
    : [isoDate?.[1], isoDate?.[2], isoDate?.[3]]
  if (year === undefined || month === undefined || day === undefined) return null
  const iso = `${year}-${month}-${day}`
  // 31.02.2026 is not a day; Date would quietly make it 3 March.
  return new Date(`${iso}T00:00:00Z`).toISOString().startsWith(iso) ? iso : null
}

/** Only web links travel on: a link Artskart relays from a dataset could be any scheme. */
const webLink = (value: string | number | null | undefined): string | null => {
  const raw = text(value)
  return raw !== null && /^https?:\/\/\S+$/i.test(raw) ? raw : null
}

/** Where an observation was, and what was done to its coordinates to get there. */
export type PlacedPosition =
  | { position: Wgs84Point; note: string | null }
  | { position: null; problem: 'no_usable_position' }

/** How far outside the asked box a position may be and still be taken as in it (about 1 km). */
const BOX_MARGIN_DEGREES = 0.01

/**
 * The position of an observation, judged against the box Artskart was asked about: missing,
 * unreadable, (0, 0) or out of range is no usable position; a pair that lies in the box only
 * with latitude and longitude swapped is swapped back, and the row says so; a position outside
 * the box altogether is no usable position either, since Artskart found the row inside it.
 *
 * @example
 * const oslo = { south: 59.8, west: 10.5, north: 60.1, east: 10.9 }
 * placeObservation({ Latitude: '10,75', Longitude: '59,91' }, oslo) // { position: { lat: 59.91, lon: 10.75 }, note: 'Artskart gave…' }
 */
export function placeObservation(
  row: Pick<UpstreamObservation, 'Latitude' | 'Longitude'>,
  box: LatLonBox,
): PlacedPosition {
  const lat = parseDecimal(row.Latitude)
  const lon = parseDecimal(row.Longitude)
  const given = { lat, lon }
  if (!isKnownPosition(given)) {
    const swapped = { lat: lon, lon: lat }
    if (isKnownPosition(swapped) && inBox(box, swapped, BOX_MARGIN_DEGREES)) {
      return { position: swapped, note: 'Artskart gave latitude and longitude the other way round; swapped back' }
    }
    return { position: null, problem: 'no_usable_position' }
  }
  if (inBox(box, given, BOX_MARGIN_DEGREES)) return { position: given, note: null }
  const swapped = { lat: given.lon, lon: given.lat }
  if (isKnownPosition(swapped) && inBox(box, swapped, BOX_MARGIN_DEGREES)) {
    return { position: swapped, note: 'Artskart gave latitude and longitude the other way round; swapped back' }
  }
  return { position: null, problem: 'no_usable_position' }
}

/** An observation as `find_observations` answers it. */
export const observationSchema = v.object({
  id: v.pipe(v.nullable(v.string()), v.description("Artskart's id of the observation")),
  obs_url: v.pipe(
    v.nullable(v.string()),
    v.description('Web page of the observation at the dataset that holds it (ObsUrl, else DetailUrl)'),
  ),
  name: v.pipe(v.nullable(v.string()), v.description('Norwegian name of the taxon, e.g. "blåmeis"')),
  scientific_name: v.pipe(
    v.nullable(v.string()),
    v.description('Scientific name of the taxon, e.g. "Cyanistes caeruleus"'),
  ),
  taxon_id: v.pipe(v.nullable(v.number()), v.description("Artsdatabanken's taxon id (the taxon parameter takes it)")),
  collected_date: v.pipe(v.nullable(v.string()), v.description('The day it was observed, YYYY-MM-DD')),
  collector: v.pipe(v.nullable(v.string()), v.description('Who observed it')),
  individual_count: v.pipe(v.nullable(v.string()), v.description('How many, as reported (text: "2", "ca 30")')),
  locality: v.pipe(v.nullable(v.string()), v.description("The observer's name for the place")),
  municipality: v.pipe(v.nullable(v.string()), v.description('Municipality, as Artskart names it')),
  county: v.pipe(v.nullable(v.string()), v.description('County, as Artskart names it')),
  latitude: v.pipe(v.number(), v.description('WGS84 latitude')),
  longitude: v.pipe(v.number(), v.description('WGS84 longitude')),
  precision_m: v.pipe(
    v.nullable(v.number()),
    v.description('Uncertainty of the position in metres, as reported; sensitive species are shown coarser'),
  ),
  dataset: v.pipe(v.nullable(v.string()), v.description('The dataset it comes from, to be credited')),
  institution: v.pipe(v.nullable(v.string()), v.description('The institution that publishes the dataset')),
  distance_km: v.pipe(
    v.nullable(v.number()),
    v.description('Distance from lat/lon in kilometres, when a point was asked about'),
  ),
  coordinate_note: v.pipe(
    v.nullable(v.string()),
    v.description('What was done to the coordinates Artskart gave, when anything was'),
  ),
})

/** One observation as `find_observations` answers it. */
export type Observation = v.InferOutput<typeof observationSchema>

/**
 * Maps a row of Artskart's list to an answer row at a position already judged.
 *
 * @example
 * toObservation(row, { lat: 59.91, lon: 10.75 }, null, null).collected_date // '2026-05-07'
 */
export function toObservation(
  row: UpstreamObservation,
  position: Wgs84Point,
  note: string | null,
  distanceKm: number | null,
): Observation {
  const taxon = parseDecimal(row.TaxonId)
  const precision = parseDecimal(row.Precision)
  return {
    id: text(row.Id),
    obs_url: webLink(row.ObsUrl) ?? webLink(row.DetailUrl),
    name: text(row.Name),
    scientific_name: text(row.ScientificName),
    taxon_id: taxon !== null && Number.isInteger(taxon) ? taxon : null,
    collected_date: collectedDate(row.CollectedDate),
    collector: text(row.Collector),
    individual_count: text(row.Count),
    locality: text(row.Locality),
    municipality: text(row.Municipality),
    county: text(row.County),
    latitude: position.lat,
    longitude: position.lon,
    precision_m: precision !== null && precision >= 0 ? precision : null,
    dataset: text(row.DatasetName),
    institution: text(row.Institution),
    distance_km: distanceKm,
    coordinate_note: note,
  }
}
