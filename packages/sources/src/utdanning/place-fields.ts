import type { PlaceFieldDeclaration } from '@allmenning/core/source'

/**
 * The place field `utdanning` fills, declared apart from its operation so the source's outline
 * names it without loading the operation. Section `community`, as agreed across the sources.
 */
export const schoolsPlaceField: PlaceFieldDeclaration = {
  name: 'schools',
  section: 'community',
  description:
    "Schools (grunnskoler and videregående) within 2 km of the point, from Udir's school register, nearest first; " +
    'those whose position is not read yet are counted apart.',
}
