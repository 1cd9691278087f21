import type { RequestBudget } from '../shared/request-budget.js'
import { createForecastStore } from './forecast-store.js'
import { createGetCurrentWeather } from './get-current-weather.js'
import { createGetForecast } from './get-forecast.js'
import { getTideForecast } from './get-tide-forecast.js'
import { getTideTable } from './get-tide-table.js'

/**
 * The operations of one `weather()` source, keyed as its outline reads them, sharing its memo of
 * forecasts (the current weather and the forecast for one cell cost one MET call): loaded when
 * a request first reads them.
 */
export function weatherOperations(requestBudget: RequestBudget | undefined) {
  const store = createForecastStore(requestBudget)
  return {
    getCurrentWeather: createGetCurrentWeather(store),
    getForecast: createGetForecast(store),
    getTideForecast,
    getTideTable,
  }
}
