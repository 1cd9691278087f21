import * as v from 'valibot'
import {
  checkUpstreamShape,
  createTimedMemo,
  listSizeCheck,
  UpstreamError,
  type OperationContext,
} from '@allmenning/core/source'
import { isKnownPosition } from '../shared/nearest.js'
import type { AccessTokens } from './access-token.js'
import { barentswatchAis, barentswatchId } from './barentswatch-upstreams.js'

/** The latest report of every vessel, name and voyage data included, as a JSON array. */
export const LATEST_COMBINED_PATH = '/v1/latest/combined'
export const LATEST_COMBINED_QUERY = { modelType: 'Full', modelFormat: 'Json' } as const

/** One vessel's latest report, AIS "not available" values already turned into null. */
export interface VesselReport {
  mmsi: number
  name: string | null
  callSign: string | null
  imo: number | null
  shipType: number | null
  lat: number
  lon: number
  speedKnots: number | null
  course: number | null
  heading: number | null
  navigationalStatus: number | null
  destination: string | null
  eta: string | null
  lengthM: number | null
  widthM: number | null
  draughtM: number | null
  msgtime: string | null
}

const n = v.optional(v.nullable(v.number()))
const s = v.optional(v.nullable(v.string()))
const combinedRecords = v.array(
  v.looseObject({
    mmsi: n,
    name: s,
    callSign: s,
    imoNumber: n,
    shipType: n,
    latitude: n,
    longitude: n,
    speedOverGround: n,
    courseOverGround: n,
    trueHeading: n,
    navigationalStatus: n,
    destination: s,
    eta: s,
    shipLength: n,
    shipWidth: n,
    draught: n,
    msgtime: s,
  }),
)

const text = (value: string | null | undefined) => {
  // AIS pads text fields with spaces and '@'.
  const trimmed = value?.replace(/@+$/, '').trim()
  return trimmed ? trimmed : null
}
/** AIS codes "not available" as a value just past the valid range (SOG 102.3, COG 360, heading 511). */
const below = (value: number | null | undefined, limit: number) =>
  typeof value === 'number' && value >= 0 && value < limit ? value : null
const positive = (value: number | null | undefined) => (typeof value === 'number' && value > 0 ? value : null)

/**
 * Reads BarentsWatch's latest combined records; records without an MMSI or a usable position
 * are counted in `skipped`.
 *
 * @example
 * const { vessels } = parseCombinedRecords(res.body, client)
 */
export function parseCombinedRecords(
  body: unknown,
  upstream: { id: string; name: string },
): { vessels: VesselReport[]; skipped: number } {
  const records = checkUpstreamShape(upstream, combinedRecords, body, 'the latest AIS positions')
  const vessels: VesselReport[] = []
  let skipped = 0
  for (const r of records) {
    const position = { lat: r.latitude, lon: r.longitude }
    if (typeof r.mmsi !== 'number' || !isKnownPosition(position)) {
      skipped++
      continue
    }
    vessels.push({
      mmsi: r.mmsi,
      name: text(r.name),
      callSign: text(r.callSign),
      imo: positive(r.imoNumber),
      shipType: positive(r.shipType),
      ...position,
      speedKnots: below(r.speedOverGround, 102.3),
      course: below(r.courseOverGround, 360),
      heading: below(r.trueHeading, 360),
      navigationalStatus:
        typeof r.navigationalStatus === 'number' && r.navigationalStatus !== 15 ? r.navigationalStatus : null,
      destination: text(r.destination),
      eta: aisEta(r.eta),
      lengthM: positive(r.shipLength),
      widthM: positive(r.shipWidth),
      // BarentsWatch passes AIS's draught on in tenths of a metre (48 for a ferry of 4.8 m).
      draughtM: tenths(positive(r.draught)),
      msgtime: text(r.msgtime),
    })
  }
  return { vessels, skipped }
}

/** A value in tenths, in whole units: 48 → 4.8. */
const tenths = (value: number | null): number | null => (value === null ? null : Math.round(value) / 10)

/**
 * The ETA as AIS carries it and BarentsWatch passes it on, `MMDDHHmm` in UTC without a year
 * (`09230955`), as `MM-DD HH:mm UTC`; null for AIS's "not available" values (month or day
 * 00, hour 24, minute 60: `00000000`, `00002460`) and for anything else. An ISO time is kept.
 *
 * @example
 * aisEta('09230955') // '09-23 09:55 UTC'
 */
export function aisEta(value: string | null | undefined): string | null {
  const written = text(value)
  if (written === null) return null
  const match = /^(\d\d)(\d\d)(\d\d)(\d\d)$/.exec(written)
  if (!match) return /^\d{4}-\d\d-\d\dT/.test(written) ? written : null
  const [month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number]
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return null
  return `${match[1]}-${match[2]} ${match[3]}:${match[4]} UTC`
}

/** Clients poll the snapshot about once a minute; positions two minutes old are still served while it refreshes. */
const SNAPSHOT_TTL_MS = 60_000
const SNAPSHOT_STALE_MS = 60_000

/**
 * The latest position of every vessel, fetched at most once a minute per source instance and
 * filtered by distance by the operation. A token the API refuses (401) is dropped and the
 * call made once more with a fresh one.
 *
 * @example
 * const positions = createVesselPositions(tokens)
 * const { vessels } = await positions.get(ctx)
 */
export function createVesselPositions(tokens: AccessTokens) {
  const memo = createTimedMemo<{ vessels: VesselReport[]; skipped: number }>({
    ttlMs: SNAPSHOT_TTL_MS,
    staleMs: SNAPSHOT_STALE_MS,
    errorTtlMs: 10_000,
    maxEntries: 1,
    // The snapshot covers every vessel in Norwegian waters, thousands at any hour. An empty one,
    // or one that lost more than half of the vessels a minute earlier, was cut short; it would
    // answer "no vessels" everywhere.
    plausible: listSizeCheck({
      upstream: barentswatchAis,
      what: 'AIS snapshot',
      count: (snapshot) => snapshot.vessels.length,
    }),
  })

  async function load(ctx: OperationContext) {
    const ais = ctx.upstream(barentswatchAis)
    // The identity service is credited only when a token is actually fetched.
    const id = () => ctx.upstream(barentswatchId)
    for (let attempt = 1; ; attempt++) {
      const token = await tokens.get(id)
      const res = await ais.getJson(LATEST_COMBINED_PATH, {
        query: LATEST_COMBINED_QUERY,
        headers: { authorization: `Bearer ${token}` },
        acceptStatus: [401],
      })
      if (res.status !== 401) return parseCombinedRecords(res.body, ais)
      tokens.drop()
      if (attempt === 2)
        throw new UpstreamError(
          ais,
          'status',
          'refused a fresh access token (HTTP 401); check that the client has the scope ais',
          401,
        )
    }
  }

  return {
    get: (ctx: OperationContext) => memo.get('latest', () => load(ctx)),
  }
}

/** The snapshot cache of one `ais()` source. */
export type VesselPositions = ReturnType<typeof createVesselPositions>
