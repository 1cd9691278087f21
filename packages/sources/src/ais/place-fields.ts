import { specPlaceField } from '../shared/spec-place-field.js'

/** The place field `find_vessels_nearby` fills, declared apart from its operation so the source's outline names it without loading the operation. */
export const vesselsPlaceField = specPlaceField({
  name: 'vessels',
  section: 'maritime',
  description: 'Vessels near the point by their latest AIS position.',
})
