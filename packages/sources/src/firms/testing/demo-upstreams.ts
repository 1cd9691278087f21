import { readFileSync } from 'node:fs'
import { demoUpstreams, type DemoUpstreams } from '@allmenning/core/testing'
import { FAKE_FIRMS_KEY, modisSokndal, startFakeFirms, viirsSokndal, type AreaRequest } from './fake-firms.js'

/** The MAP_KEY the demo's FIRMS accepts. */
export const DEMO_FIRMS_KEY = 'demo'

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')
const rowsOf = (csv: string) => csv.trimEnd().split('\n').slice(1)

/**
 * The detections the demo serves: the recorded Sokndal rows and rows written for the demo by
 * Oslo (Klemetsrud and Grorud), Drammen, in Ryfylke (the JSDoc's point), by Bergen, Trondheim
 * and Kristiansand, as FIRMS writes them, with their times as they stood at {@link CAPTURED}.
 */
const recorded = {
  viirs: {
    header: viirsSokndal.split('\n')[0]!,
    rows: [...rowsOf(viirsSokndal), ...rowsOf(fixture('viirs-demo.csv'))],
  },
  modis: {
    header: modisSokndal.split('\n')[0]!,
    rows: [...rowsOf(modisSokndal), ...rowsOf(fixture('modis-demo.csv'))],
  },
}
/** The moment the rows' times are counted back from: an hour after the last overpass in them. */
const CAPTURED = Date.parse('2026-04-18T12:30:00Z')
const DAY_MS = 86_400_000
const MINUTE_MS = 60_000

/** The satellite code FIRMS writes for each VIIRS product. */
const VIIRS_SATELLITE: Record<string, string> = {
  VIIRS_SNPP_NRT: 'N',
  VIIRS_NOAA20_NRT: 'N20',
  VIIRS_NOAA21_NRT: 'N21',
}

/**
 * One row moved so that it is as old now as it was at {@link CAPTURED}, its `acq_time` written
 * as FIRMS writes it (HHMM without leading zeros); undefined when older than `days` days.
 * (How FIRMS counts its day range, by date or by hours, is not verified; here it is days × 24 h.)
 */
function movedRow(row: string, now: number, days: number, satellite: string | undefined): string | undefined {
  const cells = row.split(',')
  const [date, time] = [cells[5] ?? '', (cells[6] ?? '').padStart(4, '0')]
  const at = Date.parse(`${date}T${time.slice(0, 2)}:${time.slice(2)}:00Z`)
  if (!Number.isFinite(at)) return row
  const age = CAPTURED - at
  if (age > days * DAY_MS) return undefined
  const moved = new Date(Math.floor((now - age) / MINUTE_MS) * MINUTE_MS).toISOString()
  cells[5] = moved.slice(0, 10)
  cells[6] = String(Number(moved.slice(11, 13) + moved.slice(14, 16)))
  if (satellite !== undefined) cells[7] = satellite
  return cells.join(',')
}

/**
 * The CSV the demo's FIRMS answers to a request now: the product's rows of the last `days`
 * days, moved to now.
 *
 * @example
 * demoFirmsCsv({ key: 'demo', source: 'VIIRS_NOAA20_NRT', area: [10, 59, 11, 60], days: 1 }, Date.now())
 */
export function demoFirmsCsv(request: AreaRequest, now: number): string {
  const modis = request.source.startsWith('MODIS')
  const { header, rows } = modis ? recorded.modis : recorded.viirs
  const satellite = modis ? undefined : VIIRS_SATELLITE[request.source]
  const moved = rows.map((row) => movedRow(row, now, request.days, satellite)).filter((row) => row !== undefined)
  return `${[header, ...moved].join('\n')}\n`
}

/**
 * The `firms` source's upstream for the offline demo: FIRMS's area API accepting the MAP_KEY
 * `demo` (and the tests' key), answering every near-real-time product with detections of the
 * last days around Oslo, Ryfylke, Sokndal, Bergen, Trondheim and Kristiansand, moved to now.
 *
 * @example
 * const demo = await startDemoUpstreams()
 * createTestGateway({ sources: firms({ mapKey: DEMO_FIRMS_KEY }), upstreams: demo.fakes })
 */
export async function startDemoUpstreams(): Promise<DemoUpstreams> {
  const fake = await startFakeFirms({
    keys: [DEMO_FIRMS_KEY, FAKE_FIRMS_KEY],
    csv: (request) => demoFirmsCsv(request, Date.now()),
  })
  return demoUpstreams({ firms: fake })
}
