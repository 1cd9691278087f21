import { createTimedMemo, type QueryValues, type UpstreamClient } from '@allmenning/core/source'
import type { RequestBudget } from '../shared/request-budget.js'
import type { Wgs84Point } from '../shared/wgs84-point.js'
import { noForecast, readAirForecast, type AirForecast } from './forecast-mapping.js'

/** The forecast path: the product's root, `/?lat=&lon=` or `/?station=`. */
export const FORECAST_PATH = '/'

/** Where a forecast is for: a point (rounded to its cell) or a station. */
export type ForecastTarget = { point: Wgs84Point } | { station: string }

/** Air-quality forecasts per cell and station, shared by the operations of one `luftkvalitet()` source. */
export interface AirForecastStore {
  load(client: UpstreamClient, target: ForecastTarget): Promise<AirForecast>
  url(client: UpstreamClient, target: ForecastTarget): string
}

const HOUR_MS = 3_600_000

function query(target: ForecastTarget): QueryValues {
  // Grunnkrets, the smallest area MET forecasts for, as MET's own clients ask.
  return 'point' in target
    ? { lat: target.point.lat, lon: target.point.lon, areaclass: 'grunnkrets' }
    : { station: target.station }
}

/**
 * Creates the forecast memo of one source instance: each cell or station is fetched once per
 * `Expires`, then revalidated with `If-Modified-Since`, within the shared MET budget. MET
 * covers Norway only; a 404 for a point outside it is taken to mean "no forecast here" and
 * answered with an empty forecast. (That MET answers 404 there is assumed, not verified; an
 * empty `time` list is read the same way.)
 *
 * @example
 * const store = createAirForecastStore(metRequestBudget)
 * const forecast = await store.load(client, { point: { lat: 59.914, lon: 10.752 } })
 */
export function createAirForecastStore(budget: RequestBudget): AirForecastStore {
  const memo = createTimedMemo<AirForecast>({
    maxEntries: 2000,
    ttlMs: HOUR_MS,
    maxTtlMs: 6 * HOUR_MS,
    beforeCall: (client) => budget.take(client),
  })
  return {
    async load(client, target) {
      const key = 'point' in target ? `${target.point.lat},${target.point.lon}` : `station:${target.station}`
      const answer = await memo.fetch(key, client, {
        path: FORECAST_PATH,
        query: query(target),
        acceptStatus: [404],
        parse: (body, status) => (status === 404 ? noForecast : readAirForecast(client, body)),
      })
      return answer.value
    },
    url: (client, target) => client.url(FORECAST_PATH, query(target)),
  }
}
