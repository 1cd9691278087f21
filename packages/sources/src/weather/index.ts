import { deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import type { RequestBudget } from '../shared/request-budget.js'
import { metLocationforecast } from './met-locationforecast-upstream.js'
import { kartverketTide } from './kartverket-tide-upstream.js'
import { currentWeatherPlaceField, forecastPlaceField, tidesPlaceField } from './place-fields.js'

/** Options of {@link weather}. */
export interface WeatherOptions {
  /**
   * The request budget MET calls take their turn in. By default one budget of 20 requests
   * per second is shared by every MET source in the process, as MET's terms ask.
   */
  requestBudget?: RequestBudget
}

/**
 * The built-in `weather` source: the current weather and the forecast for any WGS84 point,
 * from MET Norway's Locationforecast 2.0 (compact). It keeps MET's terms: coordinates are
 * rounded to three decimals, each cell is fetched at most once per `Expires` and then
 * revalidated with `If-Modified-Since`, and calls stay within 20 per second. MET also asks
 * for an identifying User-Agent: set the gateway's `upstream.userAgent` to your
 * application's name and a contact. Tides and sea level on the Norwegian coast come from
 * Kartverket's water-level API (`get_tide_forecast`, `get_tide_table`), in chart datum unless
 * another datum is asked for.
 *
 * @example
 * import { createGateway } from '@allmenning/core'
 * import { weather } from '@allmenning/sources/weather'
 * const gateway = createGateway({ sources: [weather()], upstream: { userAgent: 'example.no-gateway/1.0 ops@example.no' } })
 * // GET /api/v1/kilder/weather/get_current_weather?lat=59.9139&lon=10.7522
 */
export function weather(options: WeatherOptions = {}): SourceDefinition {
  return defineSource({
    id: 'weather',
    name: 'Weather (MET Norway Locationforecast)',
    description:
      "The weather now and the forecast for the next ten days at any point on Earth, from MET Norway's " +
      'Locationforecast: temperature, humidity, wind, pressure, cloud cover, precipitation and the Yr weather symbol; ' +
      "and tides and sea level on the Norwegian coast from Kartverket's water-level API.",
    documentation: 'https://api.met.no/weatherapi/locationforecast/2.0/documentation',
    topic: 'weather',
    keywords: ['weather', 'forecast', 'vær', 'værmelding', 'værvarsel', 'temperature', 'wind', 'precipitation', 'yr'],
    synonyms: [
      'temperatur',
      'vind',
      'nedbør',
      'regn',
      'snø',
      'met',
      'meteorologisk institutt',
      'locationforecast',
      'current weather',
      'tidevann',
      'flo og fjære',
      'vannstand',
      'havnivå',
      'stormflo',
      'tides',
      'sea level',
      'storm surge',
    ],
    contentLanguages: ['en'],
    cacheTtlSeconds: 600,
    upstreams: [metLocationforecast, kartverketTide],
    entityTypes: { point: { operation: 'get_forecast', parameter: 'lat' } },
    // The operations' code is imported when a request first reads it (see deferOperations).
    operations: deferOperations(
      {
        get_current_weather: { operation: 'getCurrentWeather', placeField: currentWeatherPlaceField },
        get_forecast: { operation: 'getForecast', placeField: forecastPlaceField },
        get_tide_forecast: 'getTideForecast',
        get_tide_table: { operation: 'getTideTable', placeField: tidesPlaceField },
      },
      async () => (await import('./operations.js')).weatherOperations(options.requestBudget),
    ),
  })
}
export { metLocationforecast } from './met-locationforecast-upstream.js'
export { kartverketTide } from './kartverket-tide-upstream.js'
export {
  createRequestBudget,
  metRequestBudget,
  type RequestBudget,
  type RequestBudgetOptions,
} from '../shared/request-budget.js'
