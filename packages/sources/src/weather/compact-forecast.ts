import * as v from 'valibot'
import { checkUpstreamShape, type UpstreamClient } from '@allmenning/core/source'
import { symbolSummary } from './symbol-summary.js'

// What locationforecast/2.0/compact sends, as much of it as this source reads. Extra fields
// are ignored; hourly steps have next_1_hours, later 6-hourly steps only next_6_hours and
// next_12_hours, and the last steps only the instant values.
const numbers = v.record(v.string(), v.number())
const period = v.looseObject({
  summary: v.optional(v.looseObject({ symbol_code: v.optional(v.string()) })),
  details: v.optional(numbers),
})
const compactPayload = v.looseObject({
  geometry: v.looseObject({ coordinates: v.pipe(v.array(v.number()), v.minLength(2)) }),
  properties: v.looseObject({
    meta: v.looseObject({ updated_at: v.string() }),
    timeseries: v.array(
      v.looseObject({
        time: v.string(),
        data: v.looseObject({
          instant: v.looseObject({ details: v.optional(numbers, {}) }),
          next_1_hours: v.optional(period),
          next_6_hours: v.optional(period),
          next_12_hours: v.optional(period),
        }),
      }),
    ),
  }),
})

const nullableNumber = (description: string) => v.pipe(v.nullable(v.number()), v.description(description))

/** The fields of one forecast step, shared by `get_current_weather` and `get_forecast`. */
export const stepFields = {
  time: v.pipe(v.string(), v.description('Start of the step, ISO 8601 UTC; instant values hold at this time')),
  temperature_c: nullableNumber('Air temperature, °C'),
  humidity_pct: nullableNumber('Relative humidity, %'),
  wind_speed_ms: nullableNumber('Mean wind speed 10 m above ground, m/s'),
  wind_direction_deg: nullableNumber('Direction the wind blows from, degrees clockwise from north'),
  pressure_hpa: nullableNumber('Air pressure at sea level, hPa'),
  cloud_cover_pct: nullableNumber('Cloud area fraction, %'),
  precipitation_mm: nullableNumber('Precipitation over the period that starts at time, mm'),
  precipitation_period_hours: v.pipe(
    v.nullable(v.picklist([1, 6, 12])),
    v.description(
      'Length of that period: 1 hour for about the first two days, then 6 hours; null at the end of the forecast',
    ),
  ),
  symbol: v.pipe(
    v.nullable(v.string()),
    v.description("MET's weather symbol for the same period, e.g. clearsky_day, lightrain, cloudy (the Yr icons)"),
  ),
  summary: v.pipe(
    v.nullable(v.string()),
    v.description('The symbol in English words, e.g. "Light rain", "Partly cloudy"; null without a symbol'),
  ),
}

/** One step of a forecast as this source answers it. */
export type ForecastStep = {
  time: string
  temperature_c: number | null
  humidity_pct: number | null
  wind_speed_ms: number | null
  wind_direction_deg: number | null
  pressure_hpa: number | null
  cloud_cover_pct: number | null
  precipitation_mm: number | null
  precipitation_period_hours: 1 | 6 | 12 | null
  symbol: string | null
  summary: string | null
}

/** A forecast for one point, kept per grid cell by the source. */
export interface Forecast {
  /** When MET computed the forecast. */
  updatedAt: string
  /** The point MET answered for, and its terrain height. */
  lat: number
  lon: number
  altitudeM: number | null
  steps: ForecastStep[]
}

/**
 * Checks a compact answer and maps it to forecast steps: the first period MET gives (next
 * hour, else the next 6 or 12 hours) supplies the symbol and the precipitation.
 *
 * @example
 * const forecast = readCompactForecast(client, response.body)
 * forecast.steps[0] // { time: '2026-02-10T08:00:00Z', temperature_c: -3.1, ..., symbol: 'cloudy' }
 */
export function readCompactForecast(client: UpstreamClient, body: unknown): Forecast {
  const payload = checkUpstreamShape(client, compactPayload, body, 'the forecast')
  const [lon, lat, altitude] = payload.geometry.coordinates as [number, number, number | undefined]
  const steps = payload.properties.timeseries.map((step): ForecastStep => {
    const now = step.data.instant.details
    const [period, hours] = step.data.next_1_hours
      ? [step.data.next_1_hours, 1 as const]
      : step.data.next_6_hours
        ? [step.data.next_6_hours, 6 as const]
        : step.data.next_12_hours
          ? [step.data.next_12_hours, 12 as const]
          : [undefined, null]
    const precipitation = period?.details?.precipitation_amount
    return {
      time: step.time,
      temperature_c: now.air_temperature ?? null,
      humidity_pct: now.relative_humidity ?? null,
      wind_speed_ms: now.wind_speed ?? null,
      wind_direction_deg: now.wind_from_direction ?? null,
      pressure_hpa: now.air_pressure_at_sea_level ?? null,
      cloud_cover_pct: now.cloud_area_fraction ?? null,
      precipitation_mm: precipitation ?? null,
      // The 12-hour period carries a symbol but no precipitation; say so rather than guess.
      precipitation_period_hours: precipitation === undefined ? null : hours,
      symbol: period?.summary?.symbol_code ?? null,
      summary: symbolSummary(period?.summary?.symbol_code ?? null),
    }
  })
  return { updatedAt: payload.properties.meta.updated_at, lat, lon, altitudeM: altitude ?? null, steps }
}

/**
 * The step that holds now: the last one that has started, else the first (a forecast that
 * starts in the next hour).
 *
 * @example
 * currentStep(forecast.steps, Date.now())
 */
export function currentStep(steps: ForecastStep[], now: number): ForecastStep | undefined {
  let found: ForecastStep | undefined
  for (const step of steps) {
    const start = Date.parse(step.time)
    if (Number.isFinite(start) && start <= now) found = step
    else if (Number.isFinite(start)) break
  }
  return found ?? steps[0]
}
