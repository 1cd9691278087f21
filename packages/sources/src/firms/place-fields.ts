import { specPlaceField } from '../shared/spec-place-field.js'

/**
 * The place field `find_fire_detections` fills, declared apart from its operation so the
 * source's outline names it without loading the operation. With the air, which wildfire smoke
 * is part of.
 */
export const fireDetectionsPlaceField = specPlaceField({
  name: 'fire_detections',
  section: 'air',
  description: 'Active fires seen by satellite near the point over the last days.',
})
