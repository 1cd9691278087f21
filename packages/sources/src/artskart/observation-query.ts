import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import type { OperationParameters, OperationResult, UpstreamClient } from '@allmenning/core/source'
import { municipalityKey, type LatLonBox, type MunicipalityInfo } from '../shared/kommuneinfo.js'
import { addDays, osloDate } from '../shared/oslo-time.js'
import type { RequestBudget } from '../shared/request-budget.js'
import { distanceKm, type Wgs84Point } from '../shared/wgs84-point.js'
import {
  observationSchema,
  parseDecimal,
  parseObservationPage,
  placeObservation,
  toObservation,
  type Observation,
  type UpstreamObservation,
} from './observation-rows.js'
import { mercatorPolygon } from './search-area.js'

/** The path of Artskart's observation list. */
export const OBSERVATIONS_PATH = '/observations/list'

/**
 * Most pages of Artskart's list read for one answer. Artskart lists the oldest observations
 * first and has no sort, so an answer covers the first `MAX_PAGES × page_size` rows of the
 * window and says so in `_meta.capped` when there were more.
 */
export const MAX_PAGES = 4

/** How many days before today `from_date` is when left out. */
export const DEFAULT_DAYS = 7

const dateParameter = (what: string) =>
  v.pipe(
    v.string(),
    v.regex(/^\d{4}-\d\d-\d\d$/, 'must be a date, YYYY-MM-DD'),
    v.check(
      (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
      'must be a real calendar date',
    ),
    v.description(what),
  )

/** The parameters both observation operations take besides where: the days, the taxon, Artskart's page size. */
export const observationWindowParameters = {
  from_date: v.optional(
    dateParameter(
      `First day of observations, YYYY-MM-DD; ${DEFAULT_DAYS} days before today (Norwegian time) when left out`,
    ),
  ),
  to_date: v.optional(dateParameter('Last day of observations, YYYY-MM-DD; today (Norwegian time) when left out')),
  taxon: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.description("Only this taxon: Artsdatabanken's taxon id (an observation's taxon_id)"),
    ),
  ),
  page_size: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(10),
      v.maxValue(5000),
      v.description(`Rows per page asked of Artskart, 10..5000; at most ${MAX_PAGES} pages are read per answer`),
    ),
    1000,
  ),
}

/** The fields of `data` both observation operations answer, around the list. */
export const observationListFields = {
  observations: v.array(observationSchema),
  count: v.pipe(
    v.number(),
    v.description('Observations found in the area among the rows read: the whole list before limit and offset'),
  ),
  total: v.pipe(
    v.number(),
    v.description("Artskart's count for the box it was asked about, before the rows outside the area were left out"),
  ),
  from_date: v.pipe(v.string(), v.description('The first day searched')),
  to_date: v.pipe(v.string(), v.description('The last day searched')),
  skipped: v.pipe(
    v.object({
      no_usable_position: v.pipe(
        v.number(),
        v.description(
          'Rows read without coordinates that could be used: missing, unreadable, (0, 0), out of range, or away from where Artskart found them',
        ),
      ),
      outside_area: v.pipe(
        v.number(),
        v.description('Rows read from the searched box that lie in another municipality, or outside the circle'),
      ),
    }),
    v.description('Rows Artskart sent that are not in observations, and why'),
  ),
}

/** The area an answer is about: a municipality, or a circle around a point, and the box Artskart is asked for. */
export type ObservationArea =
  | { kind: 'municipality'; municipality: MunicipalityInfo; box: LatLonBox }
  | { kind: 'point'; point: Wgs84Point; radiusKm: number; box: LatLonBox }

/** Why rows Artskart sent are not in an answer. */
interface Skipped {
  no_usable_position: number
  outside_area: number
}

const invalid = (parameter: string, problem: string, rule: string) =>
  new GatewayError(400, 'invalid_parameter', `Invalid parameter: ${parameter} ${problem}`, {
    details: [{ parameter, problem, rule }],
  })

function inMunicipality(row: UpstreamObservation, municipality: MunicipalityInfo, keys: Set<string>): boolean {
  const name = row.Municipality === null || row.Municipality === undefined ? '' : String(row.Municipality).trim()
  if (name !== '' && keys.has(municipalityKey(name))) return true
  // Artskart may number a municipality by an older register (Bærum was 0219, then 3024): the name decides first.
  const id = parseDecimal(row.MunicipalityId)
  return id !== null && id === Number(municipality.number)
}

/** The rows of one page that lie in the area, with their positions judged; counts the rest. */
function rowsInArea(rows: UpstreamObservation[], area: ObservationArea, skipped: Skipped): Observation[] {
  const keys = area.kind === 'municipality' ? new Set(area.municipality.names.map(municipalityKey)) : new Set<string>()
  const found: Observation[] = []
  for (const row of rows) {
    const placed = placeObservation(row, area.box)
    if (placed.position === null) {
      skipped.no_usable_position++
      continue
    }
    if (area.kind === 'municipality') {
      if (!inMunicipality(row, area.municipality, keys)) {
        skipped.outside_area++
        continue
      }
      found.push(toObservation(row, placed.position, placed.note, null))
      continue
    }
    const distance = distanceKm(area.point, placed.position)
    if (distance > area.radiusKm) {
      skipped.outside_area++
      continue
    }
    found.push(toObservation(row, placed.position, placed.note, Math.round(distance * 1000) / 1000))
  }
  return found
}

/** What {@link readObservations} answers, before the operation adds its own fields. */
export interface ObservationList {
  observations: Observation[]
  count: number
  total: number
  from_date: string
  to_date: string
  skipped: Skipped
}

type WindowParameters = OperationParameters<typeof observationWindowParameters>

/**
 * The observations of an area within the asked days, read page by page from Artskart (each
 * call within the request budget) until the page asked for is filled and one more row is known,
 * Artskart has no more, or {@link MAX_PAGES} pages are read, which the answer then states in
 * `_meta.capped`. Artskart is asked for the area's box; the rows outside the municipality or
 * the circle, and those without a usable position, are left out and counted.
 *
 * @example
 * const point = { lat: 59.91, lon: 10.75 }
 * const area: ObservationArea = { kind: 'point', point, radiusKm: 1, box: boxAround(point, 1) }
 * const { data, page, capped } = await readObservations(ctx.upstream(artskartApi), artskartRequestBudget, area, params)
 */
export async function readObservations(
  client: UpstreamClient,
  budget: RequestBudget,
  area: ObservationArea,
  params: WindowParameters,
): Promise<Omit<OperationResult<ObservationList>, 'data'> & { data: ObservationList }> {
  const today = osloDate()
  const toDate = params.to_date ?? today
  const fromDate = params.from_date ?? addDays(toDate < today ? toDate : today, -DEFAULT_DAYS)
  if (fromDate > toDate) throw invalid('to_date', `must not be before from_date (${fromDate})`, 'min_value')

  const query = {
    pageSize: params.page_size,
    FromDate: fromDate,
    ToDate: toDate,
    gmWktPolygon: mercatorPolygon(area.box),
    taxons: params.taxon,
  }
  const need = params.offset + params.limit
  const skipped: Skipped = { no_usable_position: 0, outside_area: 0 }
  const found: Observation[] = []
  let total = 0
  let read = 0
  let pages = 0
  let exhausted = false
  let firstUrl: string | undefined
  while (pages < MAX_PAGES) {
    await budget.take(client)
    const response = await client.getJson(OBSERVATIONS_PATH, { query: { pageIndex: pages, ...query } })
    firstUrl ??= response.url
    const page = parseObservationPage(response.body, client)
    pages++
    total = page.total
    read += page.observations.length
    found.push(...rowsInArea(page.observations, area, skipped))
    exhausted = page.observations.length < params.page_size || read >= page.total
    // One row past the window tells has_more_results; reading on would only fill the cache.
    if (exhausted || found.length > need) break
  }
  const capped = !exhausted && found.length <= need
  return {
    data: {
      observations: found.slice(params.offset, need),
      count: found.length,
      total,
      from_date: fromDate,
      to_date: toDate,
      skipped,
    },
    page: { hasMore: found.length > need },
    ...(firstUrl ? { sourceApi: firstUrl } : {}),
    rawValues: { artskart_rows_read: read, artskart_pages_read: pages },
    ...(capped
      ? {
          capped: {
            cap: MAX_PAGES * params.page_size,
            reason:
              `Artskart lists the oldest observations first and has ${total} in the searched box; this answer read its first ` +
              `${MAX_PAGES} pages of ${params.page_size} rows. Narrow from_date and to_date, or give taxon, for the rest`,
          },
        }
      : {}),
  }
}
