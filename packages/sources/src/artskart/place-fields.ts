import type { PlaceFieldDeclaration } from '@allmenning/core/source'

/**
 * The place field `artskart` fills, declared apart from its operation so the source's outline
 * names it without loading the operation. A section of its own: no spec section is about nature.
 */
export const speciesObservationsPlaceField: PlaceFieldDeclaration = {
  name: 'species_observations',
  section: 'nature',
  description:
    "Species observations reported to Artsdatabanken's Artskart within 1 km of the point in the last 7 days.",
}
