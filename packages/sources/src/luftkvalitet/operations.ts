import { metRequestBudget, type RequestBudget } from '../shared/request-budget.js'
import { createAirForecastStore } from './forecast-store.js'
import { createGetAirQualityForecast } from './get-air-quality-forecast.js'
import { createGetAirQualityNearby } from './get-air-quality-nearby.js'
import { createGetStationForecast } from './get-station-forecast.js'
import { createStationList } from './station-list.js'

/**
 * The operations of one `luftkvalitet()` source, keyed as its outline reads them, sharing its
 * station list and its memo of forecasts: loaded when a request first reads them.
 */
export function luftkvalitetOperations(requestBudget: RequestBudget = metRequestBudget) {
  const stations = createStationList(requestBudget)
  const forecasts = createAirForecastStore(requestBudget)
  return {
    getAirQualityNearby: createGetAirQualityNearby(stations),
    getAirQualityForecast: createGetAirQualityForecast(forecasts),
    getStationForecast: createGetStationForecast(stations, forecasts),
  }
}
