import * as v from 'valibot'
import { defineOperation, UpstreamError } from '@allmenning/core/source'
import { currentStep, stepFields } from './compact-forecast.js'
import type { ForecastStore } from './forecast-store.js'
import { metLocationforecast } from './met-locationforecast-upstream.js'
import { weatherPoint } from './weather-point.js'
import { currentWeatherPlaceField } from './place-fields.js'

/**
 * Builds `get_current_weather`: the forecast step that holds now, for a WGS84 point.
 *
 * @example
 * const op = createGetCurrentWeather(createForecastStore())
 * const { data } = await op.run({ lat: 59.914, lon: 10.752, limit: 25, offset: 0 }, ctx) // { temperature_c: -3.1, ..., symbol: 'cloudy', summary: 'Cloudy' }
 */
export function createGetCurrentWeather(store: ForecastStore) {
  return defineOperation({
    description:
      "The weather now at a WGS84 point from MET Norway's Locationforecast: temperature, humidity, wind, pressure, " +
      'cloud cover, and the precipitation and weather symbol (in words too) of the coming hour. These are forecast values for the ' +
      'current hour (MET computes them for every point on Earth), not station measurements.',
    parameters: weatherPoint,
    output: v.object({
      ...stepFields,
      updated_at: v.pipe(v.string(), v.description('When MET computed the forecast, ISO 8601 UTC')),
      lat: v.pipe(v.number(), v.description('Latitude MET answered for (the requested cell)')),
      lon: v.pipe(v.number(), v.description('Longitude MET answered for')),
      altitude_m: v.pipe(v.nullable(v.number()), v.description("Terrain height at the point in MET's model, metres")),
    }),
    placeField: currentWeatherPlaceField,
    cacheTtlSeconds: 600,
    canonicalFieldAliases: { timestamp: ['time'] },
    shapeNote:
      'data is the object the public gateway’s clients read ({temperature_c, humidity_pct, wind_speed_ms, ..., symbol}), ' +
      'with summary, the symbol in words, for the clients that show a text; ' +
      'wind_direction_deg, pressure_hpa, cloud_cover_pct, precipitation and the point stand beside them.',

    async run(params, ctx) {
      const client = ctx.upstream(metLocationforecast)
      const forecast = await store.load(client, params)
      const step = currentStep(forecast.steps, Date.now())
      if (!step) throw new UpstreamError(client, 'invalid_response', 'answered a forecast without any time steps')
      return {
        data: {
          ...step,
          updated_at: forecast.updatedAt,
          lat: forecast.lat,
          lon: forecast.lon,
          altitude_m: forecast.altitudeM,
        },
        sourceApi: store.url(client, params),
      }
    },

    entities: (_data, params) => [
      { type: 'point', id: `${params.lat},${params.lon}`, linkParameters: { lat: params.lat, lon: params.lon } },
    ],
  })
}
