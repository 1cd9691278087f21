import { readFileSync } from 'node:fs'
import { startFakeUpstream, type FakeReply, type FakeRoute, type FakeUpstream } from '@allmenning/core/testing'

/** The key the fake accepts. */
export const FAKE_FIRMS_KEY = 'abcdef0123456789abcdef0123456789'

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')

/** VIIRS rows near Sokndal (acq_time without leading zeros, l/n/h confidence, one row without latitude). */
export const viirsSokndal = fixture('viirs-snpp-sokndal.csv')
/** MODIS rows near Sokndal (percentage confidence, brightness instead of bright_ti4). */
export const modisSokndal = fixture('modis-sokndal.csv')
/** What FIRMS answers when there are no fires: the header line alone. */
export const viirsHeaderOnly = fixture('viirs-header-only.csv')

/** FIRMS sends CSV as text/csv, and its refusals as text/plain. */
export const firmsCsv = (body: string): FakeReply => ({
  status: 200,
  headers: { 'content-type': 'text/csv; charset=utf-8' },
  body,
})
export const firmsText = (status: number, body: string): FakeReply => ({
  status,
  headers: { 'content-type': 'text/plain; charset=utf-8' },
  body,
})

/** One parsed area request: `/api/area/csv/{key}/{source}/{west,south,east,north}/{days}`. */
export interface AreaRequest {
  key: string
  source: string
  area: [number, number, number, number]
  days: number
}

/**
 * Reads an area request the way FIRMS does; undefined when the path is not one.
 *
 * @example
 * parseAreaPath('/area/csv/KEY/VIIRS_SNPP_NRT/5.9,58.1,6.7,58.6/1')
 */
export function parseAreaPath(pathname: string): AreaRequest | undefined {
  const match = /^\/area\/csv\/([^/]+)\/([A-Z0-9_]+)\/([^/]+)\/(\d+)$/.exec(pathname)
  if (!match) return undefined
  const area = decodeURIComponent(match[3]!).split(',').map(Number)
  if (area.length !== 4 || area.some((n) => !Number.isFinite(n))) return undefined
  return {
    key: decodeURIComponent(match[1]!),
    source: match[2]!,
    area: area as AreaRequest['area'],
    days: Number(match[4]),
  }
}

/** What a fake FIRMS accepts and answers. */
export interface FirmsAreaOptions {
  /** The MAP_KEYs it accepts; {@link FAKE_FIRMS_KEY} by default. */
  keys?: readonly string[]
  /** The CSV of a request before it is cut to the box: header and rows. The Sokndal fixtures by default. */
  csv?: (request: AreaRequest) => string
}

const recordedCsv = (request: AreaRequest) =>
  request.source === 'MODIS_NRT' ? modisSokndal : request.source.startsWith('VIIRS_') ? viirsSokndal : viirsHeaderOnly

/**
 * How a fake FIRMS answers an area request: `Invalid MAP_KEY.` (HTTP 400, text/plain) to any
 * key but those it accepts, `Invalid day range` beyond 1..5, and otherwise the CSV of the
 * product, keeping only rows inside the requested box, as FIRMS does.
 *
 * @example
 * startFakeUpstream({ '*': firmsAreaRoute({ keys: ['demo'] }) }, '/api')
 */
export function firmsAreaRoute(options: FirmsAreaOptions = {}): FakeRoute {
  const keys = options.keys ?? [FAKE_FIRMS_KEY]
  const csvOf = options.csv ?? recordedCsv
  return (url) => {
    const request = parseAreaPath(url.pathname.replace(/^\/api/, ''))
    if (!request) return firmsText(404, 'Not Found')
    if (!keys.includes(request.key)) return firmsText(400, 'Invalid MAP_KEY.')
    if (request.days < 1 || request.days > 5) return firmsText(400, 'Invalid day range. Expects [1..5].')
    const [west, south, east, north] = request.area
    const [header, ...rows] = csvOf(request).trimEnd().split('\n')
    const inside = rows.filter((row) => {
      const [lat, lon] = row.split(',').map(Number)
      // A row FIRMS could not place stays in, so the source's own checks are exercised.
      return !Number.isFinite(lat) || lat === 0 || (lat! >= south && lat! <= north && lon! >= west && lon! <= east)
    })
    return firmsCsv(`${[header, ...inside].join('\n')}\n`)
  }
}

/** The tests' FIRMS: {@link firmsAreaRoute} with {@link FAKE_FIRMS_KEY} and the Sokndal fixtures. */
export const serveFirmsArea: FakeRoute = firmsAreaRoute()

/**
 * A local FIRMS under `/api`, answering area requests with {@link firmsAreaRoute}: by default
 * {@link serveFirmsArea}, the tests' key and the Sokndal fixtures.
 *
 * @example
 * const fake = await startFakeFirms()
 * createGateway({ sources: [firms({ mapKey: FAKE_FIRMS_KEY })], upstreams: { firms: { baseUrl: fake.baseUrl } } })
 */
export async function startFakeFirms(options?: FirmsAreaOptions): Promise<FakeUpstream> {
  return startFakeUpstream({ '*': options ? firmsAreaRoute(options) : serveFirmsArea }, '/api')
}
