import * as v from 'valibot'
import { checkUpstreamShape, type UpstreamClient } from '@allmenning/core/source'
import { forecastPayload, toNumber } from './upstream-shapes.js'

const nullableNumber = (description: string) => v.pipe(v.nullable(v.number()), v.description(description))

const pollutants = ['pm10', 'pm25', 'no2', 'o3'] as const

/** MET's AQI bands: below 2 low, below 3 moderate, below 4 high, else very high. */
export const aqiLevels = ['low', 'moderate', 'high', 'very_high'] as const

const hour = v.object({
  from: v.pipe(v.string(), v.description('Start of the hour, ISO 8601 UTC')),
  to: v.pipe(v.string(), v.description('End of the hour, ISO 8601 UTC')),
  aqi: nullableNumber(
    "MET's air quality index for the hour, the worst of the pollutants: 1–2 low, 2–3 moderate, 3–4 high, 4 and above very high",
  ),
  level: v.pipe(v.nullable(v.picklist(aqiLevels)), v.description('The band aqi falls in')),
  dominant_pollutant: v.pipe(v.nullable(v.picklist(pollutants)), v.description('The pollutant with the highest index')),
  aqi_pm10: nullableNumber('Index for PM10'),
  aqi_pm25: nullableNumber('Index for PM2.5'),
  aqi_no2: nullableNumber('Index for NO₂'),
  aqi_o3: nullableNumber('Index for O₃'),
  pm10_ug_m3: nullableNumber('PM10 concentration, µg/m³'),
  pm25_ug_m3: nullableNumber('PM2.5 concentration, µg/m³'),
  no2_ug_m3: nullableNumber('NO₂ concentration, µg/m³'),
  o3_ug_m3: nullableNumber('O₃ concentration, µg/m³'),
})

const area = v.object({
  name: v.pipe(v.nullable(v.string()), v.description('Name of the area')),
  code: v.pipe(v.nullable(v.string()), v.description('Its area code (grunnkrets, delområde or kommune number)')),
  class: v.pipe(
    v.nullable(v.string()),
    v.description('Kind of area: grunnkrets, delomrade, kommune, fylke or station'),
  ),
  lat: nullableNumber('Latitude MET gives for the area, WGS84'),
  lon: nullableNumber('Longitude MET gives for the area, WGS84'),
})

const forecastFields = {
  location: v.pipe(
    v.nullable(area),
    v.description('The area (or station) the forecast is for; null when MET has no forecast here'),
  ),
  parent_area: v.pipe(v.nullable(area), v.description('The area around it, as MET names it')),
  reftime: v.pipe(v.nullable(v.string()), v.description('When the forecast run started, ISO 8601 UTC')),
  times: v.pipe(v.array(hour), v.description('The forecast hour by hour')),
}

const component = v.object({
  component: v.pipe(v.literal('AQI'), v.description('Which series: AQI, the air quality index of times[].aqi')),
  values: v.pipe(
    v.array(
      v.object({
        time: v.pipe(v.string(), v.description('Start of the hour, ISO 8601 UTC (times[].from)')),
        value: nullableNumber('The index for the hour (times[].aqi)'),
      }),
    ),
    v.description('The hours of this page of times, in the same order'),
  ),
})

/** The `data` of both forecast operations. */
export const forecastOutput = v.object({
  ...forecastFields,
  // The public gateway's clients read the index as a series per component, and only its band now.
  components: v.pipe(
    v.array(component),
    v.description('The AQI of the hours in times as one series, the shape the public gateway’s clients read'),
  ),
  now_level: v.pipe(
    v.nullable(v.picklist(aqiLevels)),
    v.description('The band of the hour that holds the time of the answer; null when no hour does'),
  ),
})

/** A forecast as MET gives it and the source keeps it, before the clients' views are added. */
export type AirForecast = v.InferOutput<v.ObjectSchema<typeof forecastFields, undefined>>

/** What a forecast operation answers where MET has none (outside Norway). */
export const noForecast: AirForecast = { location: null, parent_area: null, reftime: null, times: [] }

function levelOf(aqi: number | null): (typeof aqiLevels)[number] | null {
  if (aqi === null) return null
  return aqi < 2 ? 'low' : aqi < 3 ? 'moderate' : aqi < 4 ? 'high' : 'very_high'
}

function areaOf(location: v.InferOutput<typeof forecastPayload>['meta']['location']): AirForecast['location'] {
  if (!location) return null
  const code = location.areacode
  return {
    name: location.name ?? null,
    code: code === null || code === undefined ? null : String(code),
    class: location.areaclass ?? null,
    lat: toNumber(location.latitude),
    lon: toNumber(location.longitude),
  }
}

/**
 * A kept forecast as the operations answer it: with the AQI of the hours on the page (the
 * window the core cuts `times` to) as the `components` series, and the band of the hour that
 * holds `now` as `now_level`.
 *
 * @example
 * withClientViews(forecast, { limit: 100, offset: 0 }, Date.now()).components[0]
 * // { component: 'AQI', values: [{ time: '2026-02-10T08:00:00Z', value: 1.63 }, ...] }
 */
export function withClientViews(forecast: AirForecast, window: { limit: number; offset: number }, now: number) {
  const page = forecast.times.slice(window.offset, window.offset + window.limit)
  const current = forecast.times.find((hour) => Date.parse(hour.from) <= now && now < Date.parse(hour.to))
  return {
    ...forecast,
    components:
      forecast.times.length === 0
        ? []
        : [{ component: 'AQI' as const, values: page.map((hour) => ({ time: hour.from, value: hour.aqi })) }],
    now_level: current?.level ?? null,
  }
}

/**
 * Checks a forecast answer and maps it: the overall and per-pollutant indices, the
 * concentrations, the band and the dominant pollutant of every hour.
 *
 * @example
 * readAirForecast(client, response.body).times[0] // { from, to, aqi: 1.42, level: 'low', dominant_pollutant: 'pm25', ... }
 */
export function readAirForecast(client: UpstreamClient, body: unknown): AirForecast {
  const payload = checkUpstreamShape(client, forecastPayload, body, 'the air-quality forecast')
  const times = payload.data.time.map((entry) => {
    const value = (name: string) => entry.variables[name]?.value ?? null
    const aqi = value('AQI')
    let dominant: (typeof pollutants)[number] | null = null
    let worst = -Infinity
    for (const pollutant of pollutants) {
      const index = value(`AQI_${pollutant}`)
      if (index !== null && index > worst) {
        worst = index
        dominant = pollutant
      }
    }
    return {
      from: entry.from,
      to: entry.to,
      aqi,
      level: levelOf(aqi),
      dominant_pollutant: dominant,
      aqi_pm10: value('AQI_pm10'),
      aqi_pm25: value('AQI_pm25'),
      aqi_no2: value('AQI_no2'),
      aqi_o3: value('AQI_o3'),
      pm10_ug_m3: value('pm10_concentration'),
      pm25_ug_m3: value('pm25_concentration'),
      no2_ug_m3: value('no2_concentration'),
      o3_ug_m3: value('o3_concentration'),
    }
  })
  return {
    location: areaOf(payload.meta.location),
    parent_area: areaOf(payload.meta.superlocation),
    reftime: payload.meta.reftime ?? null,
    times,
  }
}
