import { defineSource, type SourceDefinition } from '@allmenning/core/source'
import { countySearch } from './counties.js'
import { getAlerts } from './get-alerts.js'
import { getForecast } from './get-forecast.js'
import { met, metAlerts } from './met-upstreams.js'

export { met, metAlerts } from './met-upstreams.js'
export { getForecast } from './get-forecast.js'
export { getAlerts } from './get-alerts.js'

/**
 * A plugin author's own source, made with nothing but the core's public API: MET Norway's
 * forecast for a point (værvarsel) and its weather warnings in force (farevarsel).
 *
 * @example
 * createGateway({ sources: [...builtInSources(process.env), weather()], upstreams: { met: { timeoutMs: 5000 } } })
 */
export function weather(): SourceDefinition {
  return defineSource({
    id: 'met_varsel',
    name: 'Forecast and weather warnings (MET Norway)',
    description:
      "MET Norway's locationforecast for any point, hour by hour, and MET's weather warnings in force in Norway, by county.",
    documentation: 'https://api.met.no/weatherapi/documentation',
    topic: 'weather',
    keywords: ['weather', 'forecast', 'warnings', 'vær', 'værvarsel', 'farevarsel', 'temperature', 'wind'],
    synonyms: [
      'yr',
      'met',
      'meteorologisk institutt',
      'metalerts',
      'temperatur',
      'vind',
      'nedbør',
      'uvær',
      'ekstremvær',
    ],
    contentLanguages: ['en'],
    // MET updates the forecast hourly and its answers expire after about half an hour.
    cacheTtlSeconds: 1800,
    upstreams: [met, metAlerts],
    entityTypes: { county: { operation: 'get_alerts', parameter: 'county' } },
    entitySearch: countySearch,
    operations: [getForecast, getAlerts],
  })
}
