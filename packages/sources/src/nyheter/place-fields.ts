import type { PlaceFieldDeclaration } from '@allmenning/core/source'

/**
 * The place field `nyheter` fills, declared apart from its operation so the source's outline
 * names it without loading the operation.
 */
export const newsPlaceField: PlaceFieldDeclaration = {
  name: 'news',
  section: 'community',
  description:
    "The police log (Politiloggen) within 20 km of the point and the region's NRK news, from the last 24 hours, newest first.",
}
