import { createTimedMemo, UpstreamError, type UpstreamClient } from '@allmenning/core/source'
import type { RequestBudget } from '../shared/request-budget.js'
import { frostGet, readSensorSystems, stationPosition, type SensorSystem } from './frost-answers.js'

/** Frost's station register. */
export const SOURCES_PATH = '/sources/v0.jsonld'

/** The register's query: every weather station in use (Frost's `validtime` defaults to now). */
export const STATION_LIST_QUERY = { types: 'SensorSystem' } as const

/** One weather station as this source keeps it. */
export interface FrostStation {
  id: string
  name: string | null
  shortName: string | null
  lat: number | null
  lon: number | null
  masl: number | null
  validFrom: string | null
  county: string | null
  countyId: number | null
  municipality: string | null
  municipalityId: number | null
  wmoId: number | null
  stationHolders: string[]
}

/** The register as read once: the stations, the licence Frost named, how many items it could not read. */
export interface StationRegister {
  stations: FrostStation[]
  license: string | null
  skipped: number
  fetchedAt: string
}

/** The whole register of one `frost()` source, read at most every 12 hours. */
export interface StationList {
  /** The register, from memory or read from Frost. */
  load(client: UpstreamClient): Promise<StationRegister>
  /** The register when it is in memory, without reading anything (for the entity search). */
  peek(): StationRegister | undefined
}

/**
 * Maps a SensorSystem to a station; one already closed (`validTo` past) is left out.
 *
 * @example
 * toStation({ id: 'SN18700', name: 'OSLO - BLINDERN', geometry: { coordinates: [10.72, 59.9423] } }, Date.now())
 */
export function toStation(s: SensorSystem, now: number): FrostStation | null {
  if (s.validTo && Date.parse(s.validTo) < now) return null
  const at = stationPosition(s)
  return {
    id: s.id,
    name: s.name ?? null,
    shortName: s.shortName ?? null,
    lat: at?.lat ?? null,
    lon: at?.lon ?? null,
    masl: s.masl ?? null,
    validFrom: s.validFrom ?? null,
    county: s.county ?? null,
    countyId: s.countyId ?? null,
    municipality: s.municipality ?? null,
    municipalityId: s.municipalityId ?? null,
    wmoId: s.wmoId ?? null,
    stationHolders: s.stationHolders ?? [],
  }
}

const HOUR_MS = 3_600_000

/**
 * The station register of one `frost()` source: the stations change a few times a year, so one
 * read serves 12 hours (a day more while a new read runs, three days when Frost fails), which
 * keeps the station searches far within Frost's budget. An empty register is refused.
 *
 * @example
 * const list = createStationList(clientId, frostRequestBudget)
 * const { stations } = await list.load(ctx.upstream(frostApi))
 */
export function createStationList(clientId: string, budget: RequestBudget, now: () => number = Date.now): StationList {
  const memo = createTimedMemo<StationRegister>({
    ttlMs: 12 * HOUR_MS,
    staleMs: 24 * HOUR_MS,
    staleOnErrorMs: 72 * HOUR_MS,
    errorTtlMs: 30_000,
    maxEntries: 1,
  })
  return {
    load: (client) =>
      memo.get('stations', async () => {
        const { body } = await frostGet(client, SOURCES_PATH, STATION_LIST_QUERY, clientId, budget)
        if (body === null)
          throw new UpstreamError(client, 'invalid_response', 'answered that it has no weather stations at all')
        const { stations, license, skipped } = readSensorSystems(body, client)
        const t = now()
        const kept = stations.map((s) => toStation(s, t)).filter((s): s is FrostStation => s !== null)
        if (kept.length === 0)
          throw new UpstreamError(client, 'invalid_response', 'sent an implausible station list (no station in use)')
        return { stations: kept, license, skipped, fetchedAt: new Date(t).toISOString() }
      }),
    peek: () => memo.peek('stations'),
  }
}
