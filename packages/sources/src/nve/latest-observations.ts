import { checkUpstreamShape, createTimedMemo, type UpstreamClient } from '@allmenning/core/source'
import { hydapiObservations } from './hydapi-shapes.js'
import { refusedKey } from './hydro-station-list.js'

/** The path of HydAPI's observations under its base URL. */
export const OBSERVATIONS_PATH = '/Observations'

/**
 * Station ids per Observations call. HydAPI takes several comma-separated; fifty keeps the URL
 * near 600 characters, and a page of 100 stations costs two calls per parameter.
 */
export const STATIONS_PER_CALL = 50

/** The latest observation of one series. */
export interface LatestValue {
  /** Null where HydAPI sends null (a gap, a gauge out of order). */
  value: number | null
  unit: string | null
  observedAt: string
}

/** The latest observations of one parameter, fetched in batches and kept briefly by one `nve()` source. */
export interface LatestObservations {
  /** Station id → its latest value of `parameter`, for the stations asked about that have one. */
  of(client: UpstreamClient, parameter: number, stationIds: string[]): Promise<Map<string, LatestValue>>
}

const MINUTE_MS = 60_000

/**
 * Latest observations, as measured (resolution 0), kept ten minutes per station and parameter:
 * NVE's gauges report every ten minutes to an hour. Only the stations not already known are
 * asked for, in calls of {@link STATIONS_PER_CALL} ids with no `ReferenceTime` (HydAPI then
 * answers the latest value of each series). A 404, which HydAPI answers for a series it does not
 * have, means no value, not a failure; any other failure is the caller's 502.
 *
 * @example
 * const levels = await createLatestObservations(apiKey).of(client, WATER_LEVEL, ['6.9.0', '1.200.0'])
 * levels.get('6.9.0') // { value: 1.204518, unit: 'm', observedAt: '2026-09-04T18:00:00Z' }
 */
export function createLatestObservations(apiKey: string): LatestObservations {
  const memo = createTimedMemo<LatestValue | null>({ ttlMs: 10 * MINUTE_MS, maxEntries: 20_000 })
  const key = (parameter: number, id: string) => `${parameter} ${id}`

  async function fetchBatch(
    client: UpstreamClient,
    parameter: number,
    ids: string[],
  ): Promise<Map<string, LatestValue>> {
    const res = await client.getJson(OBSERVATIONS_PATH, {
      query: { StationId: ids.join(','), Parameter: parameter, ResolutionTime: 0 },
      headers: { 'X-API-Key': apiKey },
      acceptStatus: [401, 403, 404],
    })
    if (res.status === 401 || res.status === 403) throw refusedKey(client, res.status)
    const found = new Map<string, LatestValue>()
    if (res.status === 404) return found
    const series = checkUpstreamShape(client, hydapiObservations, res.body, 'the latest observations').data ?? []
    for (const s of series) {
      if (s.parameter !== parameter) continue
      // Without ReferenceTime HydAPI sends one observation; the newest is taken should it send more.
      const latest = (s.observations ?? []).reduce<{ time: string; value?: number | null | undefined } | undefined>(
        (best, o) => (best === undefined || Date.parse(o.time) > Date.parse(best.time) ? o : best),
        undefined,
      )
      if (latest && !Number.isNaN(Date.parse(latest.time))) {
        found.set(s.stationId, { value: latest.value ?? null, unit: s.unit ?? null, observedAt: latest.time })
      }
    }
    return found
  }

  return {
    async of(client, parameter, stationIds) {
      const answer = new Map<string, LatestValue>()
      const missing: string[] = []
      for (const id of new Set(stationIds)) {
        const known = memo.peek(key(parameter, id))
        if (known === undefined) missing.push(id)
        else if (known !== null) answer.set(id, known)
      }
      const batches: string[][] = []
      for (let i = 0; i < missing.length; i += STATIONS_PER_CALL) batches.push(missing.slice(i, i + STATIONS_PER_CALL))
      const fetched = await Promise.all(batches.map((ids) => fetchBatch(client, parameter, ids)))
      await Promise.all(
        batches.flatMap((ids, i) =>
          ids.map(async (id) => {
            const value = fetched[i]!.get(id) ?? null
            // Remembered also when there is none, so a station without a value is not asked for again at once.
            await memo.get(key(parameter, id), async () => value)
            if (value) answer.set(id, value)
          }),
        ),
      )
      return answer
    },
  }
}
