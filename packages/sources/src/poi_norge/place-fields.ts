import { specPlaceField } from '../shared/spec-place-field.js'

/** The place field `search_poi` fills, declared apart from its operation so the source's outline names it without loading the operation. */
export const poisPlaceField = specPlaceField({
  name: 'pois',
  section: 'poi',
  description: 'Points of interest near the point, from OpenStreetMap.',
})
