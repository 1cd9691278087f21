import { placeFields, type PlaceField } from '../plugin/place-fields.js'

/** The `section` values of `/api/v1/steder/{lat}/{lon}` (spec 4.2). */
export const placeSections = ['summary', 'geography', 'weather', 'air', 'poi', 'energy', 'maritime', 'all'] as const

export type PlaceSection = (typeof placeSections)[number]

/**
 * The fields each section fetches. `summary`, the default, is small: the nearest addresses
 * and place names and the weather now. `all` is every field and must be asked for.
 * Fire detections go with the air, which wildfire smoke is part of.
 */
export const sectionFields: Record<PlaceSection, readonly PlaceField[]> = {
  summary: ['addresses', 'place_names', 'current_weather'],
  geography: ['addresses', 'place_names'],
  weather: ['current_weather', 'forecast'],
  air: ['air_stations', 'air_forecast', 'fire_detections'],
  poi: ['pois'],
  energy: ['charging_stations', 'price_area'],
  maritime: ['vessels', 'aquaculture', 'ports'],
  all: placeFields,
}

/** The section a field belongs to in the answer (the first that is not summary or all). */
export function sectionOf(field: PlaceField): Exclude<PlaceSection, 'summary' | 'all'> {
  for (const [section, fields] of Object.entries(sectionFields)) {
    if (section !== 'summary' && section !== 'all' && fields.includes(field)) return section as Exclude<PlaceSection, 'summary' | 'all'>
  }
  throw new TypeError(`Place field ${field} belongs to no section`)
}
