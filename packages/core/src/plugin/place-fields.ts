/**
 * The twelve payload fields of `/api/v1/steder/{lat}/{lon}` (spec 4.2), the values `fields`
 * takes, and `price_area`, the price area (NO1–NO5) a point lies in with its power situation,
 * which the energy section adds. An operation that can fill one declares it with
 * `placeField`; the places endpoints call it with `lat` and `lon`.
 */
export const selectablePlaceFields = [
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

/** Every field a place bundle can hold: the twelve of spec 4.2 and the price area. */
export const placeFields = [...selectablePlaceFields, 'price_area'] as const

/** One of the {@link placeFields}. */
export type PlaceField = (typeof placeFields)[number]
