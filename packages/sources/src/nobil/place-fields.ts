import { specPlaceField } from '../shared/spec-place-field.js'

/** The place field nobil fills, declared apart from its operation so the source's outline names it without loading the operation. */
export const chargingStationsPlaceField = specPlaceField({
  name: 'charging_stations',
  section: 'energy',
  description: 'The nearest public charging stations for electric vehicles.',
})
