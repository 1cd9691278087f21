import type { PlaceFieldDeclaration } from '@allmenning/core/source'

/** Spec 4.2's sections of `/api/v1/steder/{lat}/{lon}`, in the order it lists them. */
const specSections = ['geography', 'weather', 'air', 'poi', 'energy', 'maritime'] as const

/**
 * Spec 4.2's twelve fields in its order, then the fields the built-ins add: the price area and
 * today's electricity price (energy), and the tides (maritime).
 */
const specFields = [
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
  'price_area',
  'electricity_price',
  'tides',
] as const

/**
 * The declaration of one of spec 4.2's place fields, placed where the spec lists it and its
 * section, so a gateway of the built-in sources answers and lists them in the spec's order
 * whatever order the sources are given in.
 *
 * @example
 * placeField: specPlaceField({ name: 'forecast', section: 'weather', description: 'The weather hour by hour.' })
 */
export function specPlaceField(field: {
  name: (typeof specFields)[number]
  section: (typeof specSections)[number]
  description: string
  summary?: boolean
}): PlaceFieldDeclaration {
  return { ...field, order: specFields.indexOf(field.name), sectionOrder: specSections.indexOf(field.section) }
}
