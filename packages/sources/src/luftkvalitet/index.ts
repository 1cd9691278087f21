import { deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import type { RequestBudget } from '../shared/request-budget.js'
import { metAirquality } from './met-airquality-upstream.js'
import { airForecastPlaceField, airStationsPlaceField } from './place-fields.js'

/** Options of {@link luftkvalitet}. */
export interface LuftkvalitetOptions {
  /**
   * The request budget MET calls take their turn in. By default one budget of 20 requests
   * per second is shared by every MET source in the process, as MET's terms ask.
   */
  requestBudget?: RequestBudget
}

/**
 * The built-in `luftkvalitet` source: air-quality stations near a point and MET Norway's
 * air-quality forecast for a point or a station, in Norway. The station list is fetched once
 * and searched locally; forecasts are kept per cell until MET's `Expires` and revalidated
 * with `If-Modified-Since`, within MET's 20 requests per second.
 *
 * @example
 * import { luftkvalitet } from '@allmenning/sources/luftkvalitet'
 * const gateway = createGateway({ sources: [luftkvalitet()], upstream: { userAgent: 'example.no-gateway/1.0 ops@example.no' } })
 * // GET /api/v1/kilder/luftkvalitet/get_air_quality_nearby?lat=59.9139&lon=10.7522&limit=5
 */
export function luftkvalitet(options: LuftkvalitetOptions = {}): SourceDefinition {
  return defineSource({
    id: 'luftkvalitet',
    name: 'Air quality (MET Norway)',
    description:
      "Air quality in Norway: the measuring stations near a point, and MET Norway's hour-by-hour forecast of the air " +
      'quality index, PM10, PM2.5, NO₂ and O₃ for a point or a station.',
    documentation: 'https://api.met.no/weatherapi/airqualityforecast/0.1/documentation',
    topic: 'environment',
    keywords: [
      'air quality',
      'luftkvalitet',
      'luftforurensning',
      'aqi',
      'pm10',
      'pm2.5',
      'no2',
      'svevestøv',
      'målestasjon',
    ],
    synonyms: [
      'air pollution',
      'pollution',
      'forurensning',
      'nitrogendioksid',
      'ozon',
      'ozone',
      'particulate matter',
      'luft',
      'nilu',
    ],
    contentLanguages: ['en', 'no'],
    cacheTtlSeconds: 1800,
    upstreams: [metAirquality],
    entityTypes: { air_quality_station: { operation: 'get_station_forecast', parameter: 'station_id' } },
    // The operations' code is imported when a request first reads it (see deferOperations).
    operations: deferOperations(
      {
        get_air_quality_nearby: { operation: 'getAirQualityNearby', placeField: airStationsPlaceField },
        get_air_quality_forecast: { operation: 'getAirQualityForecast', placeField: airForecastPlaceField },
        get_station_forecast: 'getStationForecast',
      },
      async () => (await import('./operations.js')).luftkvalitetOperations(options.requestBudget),
    ),
  })
}
export { metAirquality } from './met-airquality-upstream.js'
