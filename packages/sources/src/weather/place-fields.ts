import { specPlaceField } from '../shared/spec-place-field.js'

// The place fields the weather source fills, declared apart from their operations so the source's outline names them without loading the operations.

/** Filled by `get_current_weather`. */
export const currentWeatherPlaceField = specPlaceField({
  name: 'current_weather',
  section: 'weather',
  description: 'The weather at the point now.',
  summary: true,
})

/** Filled by `get_forecast`. */
export const forecastPlaceField = specPlaceField({
  name: 'forecast',
  section: 'weather',
  description: 'The weather forecast for the point, hour by hour.',
})

/** Filled by `get_tide_table`. */
export const tidesPlaceField = specPlaceField({
  name: 'tides',
  section: 'maritime',
  description: 'High and low water at the point for the next three days (Kartverket, chart datum).',
})
