import type { PlaceFieldDeclaration } from '@allmenning/core/source'

/** The place field entur fills, declared apart from its operation so the source's outline names it without loading the operation. */
export const stopsPlaceField: PlaceFieldDeclaration = {
  name: 'stops',
  section: 'transport',
  description: "Public transport stop places near the point, nearest first (Entur's national stop register).",
  // After spec 4.2's sections and fields (whose order runs from 0), in a section of its own.
  order: 100,
  sectionOrder: 100,
}
