import { fakeReply, startFakeUpstream, type FakeUpstream } from '@allmenning/core/testing'

/** A tidal zone of the fake: its own names and tides, not Kartverket's. */
export interface FakeTideZone {
  name: string
  code: string
  lat: number
  lon: number
  /** Amplitude of the half-daily tide, cm. */
  amplitude: number
  /** Chart datum below mean sea level, cm. */
  chartDatumBelowMsl: number
  /** NN2000 above mean sea level, cm. */
  nn2000AboveMsl: number
}

/** The fake's coast: three zones, each answering points within 40 km. */
export const fakeTideZones: FakeTideZone[] = [
  {
    name: 'Oslo',
    code: 'OSL',
    lat: 59.908,
    lon: 10.735,
    amplitude: 14.5,
    chartDatumBelowMsl: 38.0,
    nn2000AboveMsl: 6.5,
  },
  {
    name: 'Bergen',
    code: 'BGO',
    lat: 60.398,
    lon: 5.32,
    amplitude: 54.0,
    chartDatumBelowMsl: 91.0,
    nn2000AboveMsl: 11.0,
  },
  {
    name: 'Tromsø',
    code: 'TOS',
    lat: 69.647,
    lon: 18.955,
    amplitude: 92.0,
    chartDatumBelowMsl: 146.0,
    nn2000AboveMsl: 16.0,
  },
]
const ZONE_RADIUS_KM = 40

/** The half-daily lunar tide's period, and an instant of high water every zone shares (the fake's simplification). */
const M2_MS = 12.4206 * 3_600_000
const HIGH_WATER_AT = Date.parse('2026-01-01T03:00:00Z')
/** How far ahead Kartverket forecasts the weather's effect. */
const FORECAST_AHEAD_MS = 60 * 3_600_000

const qualityHigh =
  'qualityFlag="1" qualityClass="Quality High" qualityDescription="High quality data: the fake&apos;s own curve, checked against nothing."'
const qualityOk = 'qualityFlag="2" qualityClass="Quality OK" qualityDescription="Data suited for most uses."'

function distanceKm(aLat: number, aLon: number, bLat: number, bLon: number): number {
  const rad = Math.PI / 180
  const h =
    Math.sin(((bLat - aLat) * rad) / 2) ** 2 +
    Math.cos(aLat * rad) * Math.cos(bLat * rad) * Math.sin(((bLon - aLon) * rad) / 2) ** 2
  return 2 * 6371 * Math.asin(Math.sqrt(h))
}

/** The level of the datum's zero above mean sea level, so a level is `msl level - datumZero`. */
function datumZero(zone: FakeTideZone, refcode: string): number {
  if (refcode === 'cd') return -zone.chartDatumBelowMsl
  if (refcode === 'nn2000') return zone.nn2000AboveMsl
  return 0
}

const round1 = (n: number) => (Math.round(n * 10) / 10).toFixed(1)
const tideMsl = (zone: FakeTideZone, t: number) =>
  zone.amplitude * Math.cos(((t - HIGH_WATER_AT) / M2_MS) * 2 * Math.PI)
const surge = (t: number) => 9 * Math.sin((t / (3 * 86_400_000)) * 2 * Math.PI) + 3
/** Time as Kartverket writes it in the zone asked for: `tzone=0` gives `+00:00`, anything else (its default) `+01:00`. */
function kartverketTime(ms: number, tzone: string | null): string {
  const hours = tzone === '0' ? 0 : 1
  return `${new Date(ms + hours * 3_600_000).toISOString().slice(0, 19)}${hours === 0 ? '+00:00' : '+01:00'}`
}

/** `YYYY-MM-DDTHH:MM` read in the zone asked for. */
function readTime(text: string | null, tzone: string | null): number {
  if (!text || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(text)) return Number.NaN
  return Date.parse(`${text}:00${tzone === '0' ? 'Z' : '+01:00'}`)
}

const document = (inner: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<tide>\n<service cominfo="The fake water-level service: our own tides, for tests."/>\n${inner}</tide>\n`

const waterlevel = (cm: number, t: number, tzone: string | null, flag: string) =>
  `<waterlevel value="${round1(cm)}" time="${kartverketTime(t, tzone)}" flag="${flag}"/>\n`

/**
 * Starts a local Kartverket water-level API answering `/tideapi.php?tide_request=locationdata`
 * as the real one does: XML with HTTP 200 for every outcome; levels in cm as decimal strings
 * relative to `refcode`; each `<data>` block found by its `type` (`observation`, `prediction`,
 * `weathereffect`, `forecast`) with quality attributes; times with an explicit offset (UTC+1
 * unless `tzone=0`); `datatype=tab` gives high and low water flagged `high`/`low`; a point it
 * has no zone for is `<nodata info="…"/>`; a missing parameter an `<error>` (that form is an
 * assumption: no real one was seen). Its coast is `zones` ({@link fakeTideZones} by default),
 * each answering points within 40 km.
 *
 * @example
 * const fake = await startFakeKartverketTide()
 * createTestGateway({ sources: weather(), upstreams: { kartverket_tide: fake } })
 */
export async function startFakeKartverketTide(zones: readonly FakeTideZone[] = fakeTideZones): Promise<FakeUpstream> {
  return startFakeUpstream({
    '/tideapi.php': (url) => {
      const q = url.searchParams
      const tzone = q.get('tzone')
      const xml = (text: string) => fakeReply.xml(text, { headers: { 'access-control-allow-origin': '*' } })
      if (q.get('tide_request') !== 'locationdata')
        return xml(document('<error>Unknown or missing tide_request</error>\n'))
      const lat = Number(q.get('lat'))
      const lon = Number(q.get('lon'))
      const from = readTime(q.get('fromtime'), tzone)
      const to = readTime(q.get('totime'), tzone)
      const refcode = (q.get('refcode') ?? 'cd').toLowerCase()
      const datatype = (q.get('datatype') ?? 'all').toLowerCase()
      if (
        !q.get('lat') ||
        !q.get('lon') ||
        Number.isNaN(lat) ||
        Number.isNaN(lon) ||
        Number.isNaN(from) ||
        Number.isNaN(to) ||
        !['cd', 'msl', 'nn2000'].includes(refcode)
      ) {
        return xml(document('<locationdata>\n<error>Missing or invalid parameter</error>\n</locationdata>\n'))
      }
      const zone = zones.find((z) => distanceKm(lat, lon, z.lat, z.lon) <= ZONE_RADIUS_KM)
      if (!zone)
        return xml(
          document(
            '<locationdata>\n<nodata info="Sorry. We do not have sea level data for this area."/>\n</locationdata>\n',
          ),
        )
      const zero = datumZero(zone, refcode)
      const head =
        `<location name="${zone.name}" code="${zone.code}" latitude="${lat.toFixed(6)}" longitude="${lon.toFixed(6)}" delay="0" factor="1.00" ` +
        `obsname="${zone.name}" obscode="${zone.code}" descr="Tides from ${zone.name}"/>\n<reflevelcode>${refcode.toUpperCase()}</reflevelcode>\n`
      if (datatype === 'tab') {
        let rows = ''
        const first = Math.ceil((from - HIGH_WATER_AT) / (M2_MS / 2))
        for (let k = first; HIGH_WATER_AT + (k * M2_MS) / 2 <= to; k++) {
          const t = Math.round((HIGH_WATER_AT + (k * M2_MS) / 2) / 60_000) * 60_000
          rows += waterlevel(tideMsl(zone, t) - zero, t, tzone, k % 2 === 0 ? 'high' : 'low')
        }
        return xml(
          document(
            `<locationdata>\n${head}<data type="prediction" unit="cm" ${qualityHigh}>\n${rows}</data>\n</locationdata>\n`,
          ),
        )
      }
      const stepMs = (q.get('interval') === '10' ? 10 : 60) * 60_000
      const now = Date.now()
      const blocks = { observation: '', prediction: '', weathereffect: '', forecast: '' }
      for (let t = Math.ceil(from / stepMs) * stepMs; t <= to; t += stepMs) {
        const level = tideMsl(zone, t) - zero
        blocks.prediction += waterlevel(level, t, tzone, 'pre')
        if (t <= now) blocks.observation += waterlevel(level + surge(t) + 1.3, t, tzone, 'obs')
        if (t <= now + FORECAST_AHEAD_MS) {
          blocks.weathereffect += waterlevel(surge(t), t, tzone, 'weathereffect')
          blocks.forecast += waterlevel(level + surge(t), t, tzone, 'forecast')
        }
      }
      const inner =
        `<data type="observation" unit="cm" ${qualityOk}>\n${blocks.observation}</data>\n` +
        `<data type="prediction" unit="cm" ${qualityHigh}>\n${blocks.prediction}</data>\n` +
        `<data type="weathereffect" unit="cm" ${qualityOk}>\n${blocks.weathereffect}</data>\n` +
        `<data type="forecast" unit="cm" ${qualityOk}>\n${blocks.forecast}</data>\n`
      return xml(document(`<locationdata>\n${head}${inner}</locationdata>\n`))
    },
  })
}
