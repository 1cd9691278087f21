import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { stepFields } from './compact-forecast.js'
import type { ForecastStore } from './forecast-store.js'
import { metLocationforecast } from './met-locationforecast-upstream.js'
import { weatherPoint } from './weather-point.js'
import { forecastPlaceField } from './place-fields.js'

/**
 * Builds `get_forecast`: MET's forecast for a WGS84 point, step by step.
 *
 * @example
 * const op = createGetForecast(createForecastStore())
 * const { data } = await op.run({ lat: 59.914, lon: 10.752, limit: 100, offset: 0 }, ctx) // [{ time, temperature_c, ... }, ...]
 */
export function createGetForecast(store: ForecastStore) {
  return defineOperation({
    description:
      "MET Norway's weather forecast for a WGS84 point, about ten days ahead: hour by hour for the first two days or " +
      'so, then in 6-hour steps. Each step has the instant values at its time and the precipitation and weather ' +
      'symbol of the period that follows.',
    parameters: weatherPoint,
    output: v.array(v.object(stepFields)),
    // One forecast has some 90 steps; the whole of it fits the default page.
    limit: { default: 100, max: 100 },
    placeField: forecastPlaceField,
    cacheTtlSeconds: 600,
    canonicalFieldAliases: { timestamp: ['[].time'] },
    shapeNote:
      'data is a bare list of steps, as the public gateway’s clients read it, with the field names of get_current_weather ' +
      '(temperature_c, humidity_pct, wind_speed_ms, symbol, ...).',

    async run(params, ctx) {
      const client = ctx.upstream(metLocationforecast)
      const forecast = await store.load(client, params)
      return { data: forecast.steps, sourceApi: store.url(client, params) }
    },
  })
}
