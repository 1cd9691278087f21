import * as v from 'valibot'
import { checkUpstreamShape, defineOperation } from '@allmenning/core/source'
import { met } from './met-upstreams.js'

// What MET's locationforecast/2.0/compact sends, as much of it as this source reads.
const forecastPayload = v.looseObject({
  properties: v.looseObject({
    timeseries: v.array(
      v.looseObject({
        time: v.string(),
        data: v.looseObject({
          instant: v.looseObject({ details: v.record(v.string(), v.number()) }),
          next_1_hours: v.optional(
            v.looseObject({
              summary: v.optional(v.looseObject({ symbol_code: v.optional(v.string()) })),
              details: v.optional(v.record(v.string(), v.number())),
            }),
          ),
        }),
      }),
    ),
  }),
})

const hour = v.object({
  time: v.pipe(v.string(), v.description('Start of the hour, ISO 8601 UTC')),
  air_temperature: v.pipe(v.nullable(v.number()), v.description('°C')),
  wind_speed: v.pipe(v.nullable(v.number()), v.description('m/s')),
  wind_from_direction: v.pipe(v.nullable(v.number()), v.description('Degrees')),
  relative_humidity: v.pipe(v.nullable(v.number()), v.description('%')),
  cloud_area_fraction: v.pipe(v.nullable(v.number()), v.description('%')),
  precipitation_next_hour: v.pipe(
    v.nullable(v.number()),
    v.description('mm in the next hour; null where MET gives 6-hour steps'),
  ),
  symbol_next_hour: v.pipe(v.nullable(v.string()), v.description("MET's weather symbol for the next hour")),
})

// MET's terms: at most four decimals, or the request is refused.
const coordinate = (min: number, max: number, what: string) =>
  v.pipe(
    v.number(),
    v.minValue(min),
    v.maxValue(max),
    v.transform((n) => Math.round(n * 10_000) / 10_000),
    v.description(what),
  )

/** `get_forecast`: MET Norway's forecast for a point, hour by hour; `data` is the list of hours. */
export const getForecast = defineOperation({
  name: 'get_forecast',
  description:
    "MET Norway's weather forecast for a WGS84 point: temperature, wind, humidity, cloud and the next hour's precipitation, hour by hour and then in 6-hour steps.",
  parameters: {
    lat: coordinate(-90, 90, 'WGS84 latitude; rounded to 4 decimals as MET requires'),
    lon: coordinate(-180, 180, 'WGS84 longitude; rounded to 4 decimals as MET requires'),
  },
  output: v.array(hour),
  canonicalFieldAliases: { timestamp: ['[].time'] },
  // /api/v1/steder/{lat}/{lon} may call it for its forecast field (the first source listed that fills it wins).
  placeField: {
    name: 'forecast',
    section: 'weather',
    description: "MET Norway's forecast for the point, hour by hour.",
  },
  async run(params, ctx) {
    const client = ctx.upstream(met)
    const response = await client.getJson('/compact', { query: { lat: params.lat, lon: params.lon } })
    const payload = checkUpstreamShape(client, forecastPayload, response.body, 'the forecast')
    const data = payload.properties.timeseries.map((step) => {
      const now = step.data.instant.details
      const next = step.data.next_1_hours
      return {
        time: step.time,
        air_temperature: now.air_temperature ?? null,
        wind_speed: now.wind_speed ?? null,
        wind_from_direction: now.wind_from_direction ?? null,
        relative_humidity: now.relative_humidity ?? null,
        cloud_area_fraction: now.cloud_area_fraction ?? null,
        precipitation_next_hour: next?.details?.precipitation_amount ?? null,
        symbol_next_hour: next?.summary?.symbol_code ?? null,
      }
    })
    return { data }
  },
})
