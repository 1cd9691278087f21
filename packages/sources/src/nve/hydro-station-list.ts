import * as v from 'valibot'
import {
  checkUpstreamShape,
  createTimedMemo,
  listSizeCheck,
  UpstreamError,
  type UpstreamClient,
} from '@allmenning/core/source'
import { isKnownPosition } from '../shared/nearest.js'
import { hydapiEnvelope, hydapiStation, type HydapiStation } from './hydapi-shapes.js'
import { HYDAPI_KEY_VARIABLE, nveHydapi } from './nve-upstreams.js'

/** The path of HydAPI's station list under its base URL. */
export const STATIONS_PATH = '/Stations'

/**
 * Which of HydAPI's station lists: `Active=0` answers the stations NVE calls active
 * (`stationStatusName` "Aktiv", some 1 900), `Active=1` every station, closed ones
 * ("Nedlagt") included (some 4 900). The numbers read backwards, but that is what real answers
 * show (docs/upstreams/nve_hydapi.md).
 */
export type StationListKind = 'active' | 'all'

const ACTIVE_PARAMETER: Record<StationListKind, 0 | 1> = { active: 0, all: 1 }

/** A series of a station as this source keeps it: its parameter, unit and the span of its data. */
export interface HydroSeries {
  parameter: number
  /** NVE's Norwegian name, e.g. Vannføring. */
  name: string | null
  unit: string | null
  firstDataAt: string | null
  latestDataAt: string | null
  /** Whether HydAPI keeps it as measured (resolution 0), which is what the latest values are read from. */
  instantaneous: boolean
}

/** A station as this source keeps it, out of the hundred fields HydAPI sends. */
export interface HydroStation {
  id: string
  name: string | null
  river: string | null
  lat: number
  lon: number
  masl: number | null
  municipality: string | null
  municipalityNumber: string | null
  county: string | null
  status: string | null
  series: HydroSeries[]
  /** The newest `dataToTime` of any of its series. */
  latestDataAt: string | null
}

/** HydAPI's station lists, fetched and kept by one `nve()` source. */
export interface HydroStationList {
  /** The list, and how many stations HydAPI sent that could not be used (no position, an odd shape). */
  load(client: UpstreamClient, kind: StationListKind): Promise<{ stations: HydroStation[]; skipped: number }>
}

const HOUR_MS = 3_600_000

const present = (value: string | null | undefined) => (value && value.trim() !== '' ? value.trim() : null)

const time = (value: string | null | undefined) => {
  const text = present(value)
  return text && !Number.isNaN(Date.parse(text)) ? text : null
}

/**
 * The later of two ISO times (null when neither is one).
 *
 * @example
 * laterOf('2026-09-04T18:00:00Z', '2026-09-04T11:00:00Z') // '2026-09-04T18:00:00Z'
 */
export function laterOf(a: string | null, b: string | null): string | null {
  if (a === null) return b
  if (b === null) return a
  return Date.parse(b) > Date.parse(a) ? b : a
}

const earlierOf = (a: string | null, b: string | null) =>
  a === null ? b : b === null ? a : Date.parse(b) < Date.parse(a) ? b : a

/** A station's series, one per parameter: a parameter kept in several versions spans all of them. */
function seriesOf(station: HydapiStation): HydroSeries[] {
  const byParameter = new Map<number, HydroSeries>()
  for (const s of station.seriesList ?? []) {
    const resolutions = s.resolutionList ?? []
    let firstDataAt: string | null = null
    let latestDataAt: string | null = null
    for (const r of resolutions) {
      firstDataAt = earlierOf(firstDataAt, time(r.dataFromTime))
      latestDataAt = laterOf(latestDataAt, time(r.dataToTime))
    }
    const instantaneous = resolutions.some((r) => r.resTime === 0)
    const known = byParameter.get(s.parameter)
    if (!known) {
      byParameter.set(s.parameter, {
        parameter: s.parameter,
        name: present(s.parameterName),
        unit: present(s.unit),
        firstDataAt,
        latestDataAt,
        instantaneous,
      })
      continue
    }
    // The version with the newest data names the unit, as HydAPI answers that version's observations.
    const newer =
      latestDataAt !== null &&
      (known.latestDataAt === null || Date.parse(latestDataAt) > Date.parse(known.latestDataAt))
    if (newer) known.unit = present(s.unit) ?? known.unit
    known.firstDataAt = earlierOf(known.firstDataAt, firstDataAt)
    known.latestDataAt = laterOf(known.latestDataAt, latestDataAt)
    known.instantaneous ||= instantaneous
  }
  return [...byParameter.values()]
}

/**
 * The stations of one `/Stations` answer that can be placed: a station without a position, or
 * one whose fields do not have HydAPI's shape, is left out and counted rather than failing the
 * whole list of thousands; a list where none is usable fails the plausibility check instead.
 *
 * @example
 * const { stations, skipped } = hydroStationsFrom(client, res.body)
 */
export function hydroStationsFrom(
  client: UpstreamClient,
  body: unknown,
): { stations: HydroStation[]; skipped: number } {
  const items = checkUpstreamShape(client, hydapiEnvelope, body, 'the station list').data ?? []
  const stations: HydroStation[] = []
  let skipped = 0
  for (const item of items) {
    const parsed = v.safeParse(hydapiStation, item)
    const position = parsed.success ? { lat: parsed.output.latitude, lon: parsed.output.longitude } : undefined
    if (!parsed.success || !position || !isKnownPosition(position)) {
      skipped++
      continue
    }
    const s = parsed.output
    const series = seriesOf(s)
    stations.push({
      id: s.stationId,
      name: present(s.stationName),
      river: present(s.riverName),
      lat: position.lat,
      lon: position.lon,
      masl: s.masl ?? null,
      municipality: present(s.councilName),
      municipalityNumber: present(s.councilNumber),
      county: present(s.countyName),
      status: present(s.stationStatusName),
      series,
      latestDataAt: series.reduce<string | null>((latest, one) => laterOf(latest, one.latestDataAt), null),
    })
  }
  return { stations, skipped }
}

/**
 * A refusal of the configured key, as a 502 naming HydAPI and the variable to check.
 *
 * @example
 * if (res.status === 401) throw refusedKey(client, res.status)
 */
export function refusedKey(client: UpstreamClient, status: number): UpstreamError {
  return new UpstreamError(
    client,
    'status',
    `refused the configured API key (HTTP ${status}); check ${HYDAPI_KEY_VARIABLE}`,
    status,
  )
}

/**
 * HydAPI's station lists for one source instance: each fetched once, kept six hours (stations
 * are added and closed a few times a year; the newest data times are refreshed by the latest
 * observations), and when HydAPI fails or sends an empty or halved list the last good list
 * serves for up to a week. The list is searched by distance locally.
 *
 * @example
 * const { stations } = await createHydroStationList(apiKey).load(ctx.upstream(nveHydapi), 'active')
 */
export function createHydroStationList(apiKey: string): HydroStationList {
  const memo = createTimedMemo<{ stations: HydroStation[]; skipped: number }>({
    maxEntries: 2,
    ttlMs: 6 * HOUR_MS,
    staleOnErrorMs: 7 * 24 * HOUR_MS,
    errorRetryMs: 60_000,
    errorTtlMs: 30_000,
    plausible: listSizeCheck({ upstream: nveHydapi, what: 'station list', count: (list) => list.stations.length }),
  })
  return {
    load(client, kind) {
      return memo.get(kind, async () => {
        const res = await client.getJson(STATIONS_PATH, {
          query: { Active: ACTIVE_PARAMETER[kind] },
          headers: { 'X-API-Key': apiKey },
          acceptStatus: [401, 403],
        })
        if (res.status === 401 || res.status === 403) throw refusedKey(client, res.status)
        return hydroStationsFrom(client, res.body)
      })
    },
  }
}

/**
 * The query of one station list, for `_provenance` when the list came from memory.
 *
 * @example
 * client.url(STATIONS_PATH, stationListQuery('active')) // 'https://hydapi.nve.no/api/v1/Stations?Active=0'
 */
export function stationListQuery(kind: StationListKind): { Active: 0 | 1 } {
  return { Active: ACTIVE_PARAMETER[kind] }
}
