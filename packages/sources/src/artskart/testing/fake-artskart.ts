import { readFileSync } from 'node:fs'
import {
  fakeReply,
  startFakeUpstream,
  type FakeReply,
  type FakeRoute,
  type FakeUpstream,
} from '@allmenning/core/testing'
import { addDays, daysBetween } from '../../shared/oslo-time.js'
import { utm33ToWgs84 } from './utm33.js'

/** The paths of Artskart's public API the fake serves, below `/publicapi/api`. */
export const artskartPaths = { list: '/observations/list' } as const

/**
 * One recorded-shape answer of `observations/list` (our own data): twenty observations, most in
 * Oslo between 1 and 7 May 2026, with the quirks clients of the real service work around:
 * coordinates as text with a decimal comma (and one with a point), latitude and longitude the
 * wrong way round, `"0"`/`"0"`, empty and unreadable coordinates, dates as `dd.mm.yyyy` (one
 * with a time), a `javascript:` link and empty links, `MunicipalityId` on some rows only, two
 * Bærum rows inside Oslo's bounding box, two Bergen rows, and one from January.
 * `FootprintWKT` is the true position in UTM zone 33, as Artskart stores it.
 */
export const observationsFixture = readFileSync(
  new URL('./fixtures/observations-oslo-may-2026.json', import.meta.url),
  'utf8',
)

type Row = Record<string, unknown>

/** The recorded rows, as the fake serves them. */
export const recordedObservations: Row[] = (JSON.parse(observationsFixture) as { Observations: Row[] }).Observations

/** What {@link startFakeArtskart} plays. */
export interface FakeArtskartOptions {
  /**
   * Moves every recorded observation into the days asked for (FromDate..ToDate), newest on
   * ToDate, as the offline demo needs for "today"; tests leave the recorded dates alone.
   */
  shiftDates?: boolean
}

/** ASP.NET Web API's answer to a request it cannot bind (the real body for a bad polygon is not seen). */
const badRequest = (message: string): FakeReply =>
  fakeReply.json({ Message: 'The request is invalid.', MessageDetail: message }, { status: 400 })

function isoOf(norwegian: unknown): string | undefined {
  const match = typeof norwegian === 'string' ? /^(\d\d)\.(\d\d)\.(\d{4})/.exec(norwegian) : null
  return match ? `${match[3]}-${match[2]}-${match[1]}` : undefined
}

function norwegianOf(iso: string, rest: string): string {
  const [year, month, day] = iso.split('-')
  return `${day}.${month}.${year}${rest}`
}

/** The box of a `gmWktPolygon` in WGS84 degrees, or undefined when it is not a polygon of Web Mercator metres. */
function polygonBox(wkt: string): { south: number; west: number; north: number; east: number } | undefined {
  const inner = /^\s*POLYGON\s*\(\((.+)\)\)\s*$/i.exec(wkt)?.[1]
  if (!inner) return undefined
  const points = inner.split(',').map((pair) => pair.trim().split(/\s+/).map(Number))
  if (points.some((p) => p.length !== 2 || p.some((n) => !Number.isFinite(n)))) return undefined
  const toLon = (x: number) => (x / 20_037_508.34) * 180
  const toLat = (y: number) => (Math.atan(Math.exp((y / 20_037_508.34) * Math.PI)) * 360) / Math.PI - 90
  const lons = points.map((p) => toLon(p[0]!))
  const lats = points.map((p) => toLat(p[1]!))
  return { south: Math.min(...lats), west: Math.min(...lons), north: Math.max(...lats), east: Math.max(...lons) }
}

/** Where Artskart has a row: its footprint (UTM 33, negative eastings west of 9° E), whatever its text coordinates say. */
function footprintOf(row: Row): { lat: number; lon: number } | undefined {
  const match = typeof row.FootprintWKT === 'string' ? /^POINT \((-?[\d.]+) (-?[\d.]+)\)$/.exec(row.FootprintWKT) : null
  return match ? utm33ToWgs84(Number(match[1]), Number(match[2])) : undefined
}

/**
 * The rows an `observations/list` query finds, in the recorded (oldest first) order:
 * within the polygon by footprint, within FromDate..ToDate, of the taxon asked for.
 *
 * @example
 * const found = observationsFor(new URLSearchParams('FromDate=2026-05-01&ToDate=2026-05-07'), recordedObservations, false)
 * Array.isArray(found) && found.length // 19: every row of those days
 */
export function observationsFor(query: URLSearchParams, rows: Row[], shiftDates: boolean): Row[] | FakeReply {
  const from = query.get('FromDate') ?? undefined
  const to = query.get('ToDate') ?? undefined
  const wkt = query.get('gmWktPolygon')
  const box = wkt === null ? undefined : polygonBox(wkt)
  if (wkt !== null && box === undefined) return badRequest(`gmWktPolygon is not a polygon: ${wkt}`)
  const taxon = query.get('taxons')
  let found = rows
  if (shiftDates && to) {
    const span = from ? Math.max(daysBetween(from, to), 0) + 1 : 7
    found = found.map((row, index) => {
      const date = typeof row.CollectedDate === 'string' ? row.CollectedDate : ''
      const day = addDays(to, -(index % span))
      return { ...row, CollectedDate: norwegianOf(day, date.slice(10)), DatetimeIdentified: norwegianOf(day, '') }
    })
  }
  return found.filter((row) => {
    const at = footprintOf(row)
    if (box && (!at || at.lat < box.south || at.lat > box.north || at.lon < box.west || at.lon > box.east)) return false
    const date = isoOf(row.CollectedDate)
    if ((from && (!date || date < from)) || (to && (!date || date > to))) return false
    return taxon === null || String(row.TaxonId) === taxon
  })
}

/**
 * The route of `observations/list` as the fake plays it: the recorded rows paged with
 * `pageIndex` and `pageSize` (20 when left out, as Artskart's default), answered as
 * `{TotalCount, PageIndex, PageSize, TotalPages, Observations}` in compact JSON,
 * `application/json; charset=utf-8` (ASP.NET's; the real header is not seen). A test that
 * replaces the route puts this one back.
 *
 * @example
 * fake.route(artskartPaths.list, artskartListRoute())
 */
export function artskartListRoute(options: FakeArtskartOptions = {}): FakeRoute {
  return (url) => {
    const pageIndex = Number(url.searchParams.get('pageIndex') ?? '0')
    const pageSize = Number(url.searchParams.get('pageSize') ?? '20')
    if (!Number.isInteger(pageIndex) || pageIndex < 0) return badRequest('pageIndex')
    if (!Number.isInteger(pageSize) || pageSize < 1) return badRequest('pageSize')
    const found = observationsFor(url.searchParams, recordedObservations, options.shiftDates ?? false)
    if (!Array.isArray(found)) return found
    const page = found.slice(pageIndex * pageSize, (pageIndex + 1) * pageSize)
    const totalPages = Math.ceil(found.length / pageSize)
    return fakeReply.json({
      TotalCount: found.length,
      PageIndex: pageIndex,
      PageSize: pageSize,
      TotalPages: totalPages,
      Observations: page,
    })
  }
}

/**
 * A local Artskart public API under `/publicapi/api`, answering `observations/list` (see
 * {@link artskartListRoute}).
 *
 * @example
 * const fake = await startFakeArtskart()
 * createGateway({ sources: [artskart()], upstreams: { artskart: { baseUrl: fake.baseUrl } } })
 */
export async function startFakeArtskart(options: FakeArtskartOptions = {}): Promise<FakeUpstream> {
  return startFakeUpstream({ [artskartPaths.list]: artskartListRoute(options) }, '/publicapi/api')
}
