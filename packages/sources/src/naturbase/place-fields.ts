import type { PlaceFieldDeclaration } from '@allmenning/core/source'

/** The place field `naturbase` fills, declared apart from its operation so the source's outline names it without loading it. */
export const protectedAreasPlaceField: PlaceFieldDeclaration = {
  name: 'protected_areas',
  section: 'nature',
  description:
    "Protected areas (verneområder) from Miljødirektoratet's Naturbase within 5 km of the point, nearest first, with a point inside each.",
}
