import { defineOperation } from '@allmenning/core/source'
import { airPoint } from './air-point.js'
import { forecastOutput, withClientViews } from './forecast-mapping.js'
import type { AirForecastStore } from './forecast-store.js'
import { metAirquality } from './met-airquality-upstream.js'
import { airForecastPlaceField } from './place-fields.js'

/**
 * Builds `get_air_quality_forecast`: MET's air-quality forecast for the grunnkrets a point lies in.
 *
 * @example
 * const op = createGetAirQualityForecast(createAirForecastStore(metRequestBudget))
 * const { data } = await op.run({ lat: 59.914, lon: 10.752, limit: 100, offset: 0 }, ctx)
 * // { location: { name: 'Sentrum 1', ... }, reftime, times: [{ from, to, aqi: 1.4, level: 'low', ... }], components, now_level: 'low' }
 */
export function createGetAirQualityForecast(store: AirForecastStore) {
  return defineOperation({
    description:
      "MET Norway's air-quality forecast for a WGS84 point in Norway, hour by hour for the coming days: the air quality " +
      'index (AQI) and its band, the dominant pollutant, and the PM10, PM2.5, NO₂ and O₃ concentrations, for the ' +
      'grunnkrets (the smallest statistical area) the point lies in; now_level is the band of the current hour. Outside Norway, where MET makes no forecast, the ' +
      'answer has no location and no hours.',
    parameters: airPoint,
    output: forecastOutput,
    list: 'times',
    limit: { default: 100, max: 100 },
    placeField: airForecastPlaceField,
    cacheTtlSeconds: 1800,
    canonicalFieldAliases: { name: ['location.name'], timestamp: ['times[].from', 'reftime'] },
    shapeNote:
      'data is an object with the hours as a named list (times), so paging and has_more_results work as in the other list ' +
      'operations; the public gateway’s clients read components (component AQI, values [{time, value}]) and now_level, ' +
      'which stand beside it and follow the same page.',

    async run(params, ctx) {
      const client = ctx.upstream(metAirquality)
      const target = { point: { lat: params.lat, lon: params.lon } }
      const forecast = await store.load(client, target)
      return { data: withClientViews(forecast, params, Date.now()), sourceApi: store.url(client, target) }
    },
  })
}
