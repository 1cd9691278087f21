import type { PlaceFieldDeclaration } from '@allmenning/core/source'

/**
 * The place field mattilsynet fills, declared apart from its operation so the source's outline
 * names it without loading the operation. Section `community`, with schools and news.
 */
export const foodInspectionsPlaceField: PlaceFieldDeclaration = {
  name: 'food_inspections',
  section: 'community',
  description:
    "Restaurants, cafés and shops within 1 km with the smiley grade of Mattilsynet's latest food inspection, nearest first, " +
    "placed at their addresses through Kartverket's address register.",
}
