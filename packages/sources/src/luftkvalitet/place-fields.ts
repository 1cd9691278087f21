import { specPlaceField } from '../shared/spec-place-field.js'

// The place fields luftkvalitet fills, declared apart from their operations so the source's
// outline names them without loading the operations.

/** Filled by `get_air_quality_nearby`. */
export const airStationsPlaceField = specPlaceField({
  name: 'air_stations',
  section: 'air',
  description: 'The nearest air-quality measuring stations, with their latest readings.',
})

/** Filled by `get_air_quality_forecast`. */
export const airForecastPlaceField = specPlaceField({
  name: 'air_forecast',
  section: 'air',
  description: 'The air-quality forecast for the point: AQI and pollutants hour by hour.',
})
