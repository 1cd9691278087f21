import type { PlaceFieldDeclaration } from '@allmenning/core/source'

/**
 * The place field `anleggsregisteret` fills, declared apart from its operation so the source's
 * outline names it without loading the operation.
 */
export const sportsFacilitiesPlaceField: PlaceFieldDeclaration = {
  name: 'sports_facilities',
  section: 'culture',
  description: 'Sports and cultural facilities from Anleggsregisteret within 2 km of the point, nearest first.',
}
