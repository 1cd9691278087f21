import { createTimedMemo, listSizeCheck, type UpstreamClient } from '@allmenning/core/source'
import { metRequestBudget, type RequestBudget } from '../shared/request-budget.js'
import type { Wgs84Point } from '../shared/wgs84-point.js'
import { readCompactForecast, type Forecast } from './compact-forecast.js'
import { metLocationforecast } from './met-locationforecast-upstream.js'

/** The path of the compact product under the Locationforecast base URL. */
export const COMPACT_PATH = '/compact'

/** Forecasts per grid cell, shared by the operations of one `weather()` source. */
export interface ForecastStore {
  /** The forecast for a point already rounded to its cell: from memory while MET's `Expires` holds. */
  load(client: UpstreamClient, point: Wgs84Point): Promise<Forecast>
  /** The URL `load` calls for a point, for provenance when the answer came from memory. */
  url(client: UpstreamClient, point: Wgs84Point): string
}

/** Cells kept in memory; one mapped forecast is some 20 KB. */
const MAX_CELLS = 1000
/** MET's answers expire about half an hour after they are sent; this is used only when one says nothing. */
const DEFAULT_TTL_MS = 30 * 60_000
/** The forecast is recomputed at least every six hours, so no answer is kept longer untouched. */
const MAX_TTL_MS = 6 * 3_600_000

let warnedDeprecated = false

/**
 * Creates the forecast memo of one source instance. A cell is fetched from MET once, kept
 * until its `Expires`, then revalidated with `If-Modified-Since`; both weather operations read
 * the same entry, so the current weather and the forecast for one place cost one call. Every
 * call takes its turn in the budget shared with the other MET sources.
 *
 * @example
 * const store = createForecastStore()
 * const forecast = await store.load(ctx.upstream(metLocationforecast), { lat: 59.914, lon: 10.752 })
 */
export function createForecastStore(budget: RequestBudget = metRequestBudget): ForecastStore {
  const memo = createTimedMemo<Forecast>({
    maxEntries: MAX_CELLS,
    ttlMs: DEFAULT_TTL_MS,
    maxTtlMs: MAX_TTL_MS,
    // A real forecast has some 85 steps. One without any, or with less than half of the steps
    // of the last one for the cell, is not kept until its Expires: the next call asks again.
    plausible: listSizeCheck({
      upstream: metLocationforecast,
      what: 'forecast',
      count: (forecast) => forecast.steps.length,
    }),
    beforeCall: (client) => budget.take(client),
  })
  return {
    async load(client, point) {
      const answer = await memo.fetch(`${point.lat},${point.lon}`, client, {
        path: COMPACT_PATH,
        query: { lat: point.lat, lon: point.lon },
        parse: (body) => readCompactForecast(client, body),
      })
      if (answer.status === 203 && !warnedDeprecated) {
        // MET's signal that this product version is deprecated: worth an operator's attention, once.
        warnedDeprecated = true
        console.warn(
          `[allmenning] ${client.name} answered 203: Locationforecast 2.0 is deprecated; a newer version should be adopted`,
        )
      }
      return answer.value
    },
    url: (client, point) => client.url(COMPACT_PATH, { lat: point.lat, lon: point.lon }),
  }
}
