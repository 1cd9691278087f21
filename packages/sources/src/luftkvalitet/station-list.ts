import { checkUpstreamShape, createTimedMemo, listSizeCheck, type UpstreamClient } from '@allmenning/core/source'
import { metRequestBudget, type RequestBudget } from '../shared/request-budget.js'
import { metAirquality } from './met-airquality-upstream.js'
import { stationsPayload, toNumber } from './upstream-shapes.js'

/** The path of the station list under the air-quality base URL. */
export const STATIONS_PATH = '/stations'

/** A measuring station as this source keeps it. */
export interface AirStation {
  station_id: string
  name: string
  municipality: string | null
  municipality_number: string | null
  area: string | null
  lat: number
  lon: number
  height_m: number | null
}

/** MET's station list, fetched once and kept by one `luftkvalitet()` source. */
export interface StationList {
  load(client: UpstreamClient): Promise<AirStation[]>
}

const HOUR_MS = 3_600_000

const text = (value: string | number | null | undefined) =>
  value === null || value === undefined || value === '' ? null : String(value)

function readStations(client: UpstreamClient, body: unknown): AirStation[] {
  const rows = checkUpstreamShape(client, stationsPayload, body, 'the station list')
  const stations: AirStation[] = []
  for (const row of rows) {
    const lat = toNumber(row.latitude)
    const lon = toNumber(row.longitude)
    // A station without a position cannot be placed on the map; it is left out rather than guessed.
    if (lat === null || lon === null || Math.abs(lat) > 90 || Math.abs(lon) > 180) continue
    stations.push({
      station_id: row.eoi,
      name: row.name,
      municipality: text(row.kommune?.name),
      municipality_number: text(row.kommune?.areacode),
      area: text(row.delomrade?.name),
      lat,
      lon,
      height_m: toNumber(row.height),
    })
  }
  return stations
}

/**
 * The station list of one source instance: fetched from MET once, kept until its `Expires`
 * (a day at most), revalidated with `If-Modified-Since`, and when MET cannot be reached the
 * last list is used for up to a week, also when MET answers an empty or cut-down list. The list is a few hundred stations, so searching it
 * by distance locally costs less than any call.
 *
 * @example
 * const stations = await createStationList().load(ctx.upstream(metAirquality))
 */
export function createStationList(budget: RequestBudget = metRequestBudget): StationList {
  const memo = createTimedMemo<AirStation[]>({
    maxEntries: 1,
    ttlMs: 6 * HOUR_MS,
    maxTtlMs: 24 * HOUR_MS,
    staleOnErrorMs: 7 * 24 * HOUR_MS,
    errorRetryMs: 60_000,
    // MET lists a few hundred stations. The true count is not known here, so the first list
    // only has to hold one placeable station; after that, one that lost more than half of the
    // last good list was cut short, and is not kept for a day.
    plausible: listSizeCheck({ upstream: metAirquality, what: 'station list', count: (stations) => stations.length }),
    beforeCall: (client) => budget.take(client),
  })
  return {
    async load(client) {
      const answer = await memo.fetch('stations', client, {
        path: STATIONS_PATH,
        parse: (body) => readStations(client, body),
      })
      return answer.value
    },
  }
}
