/**
 * The twelve payload fields of `/api/v1/steder/{lat}/{lon}` (spec 4.2). An operation that can
 * fill one declares it with `placeField`; the places endpoints call it with `lat` and `lon`.
 */
export const placeFields = [
  'addresses',
  'place_names',
  'current_weather',
  'forecast',
  'air_stations',
  'air_forecast',
  'pois',
  'vessels',
  'aquaculture',
  'ports',
  'charging_stations',
  'fire_detections',
] as const

/** One of the {@link placeFields}. */
export type PlaceField = (typeof placeFields)[number]
