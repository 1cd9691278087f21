import type { PlaceFieldDeclaration } from '@allmenning/core/source'

/**
 * The place field `kulturarv` fills, declared apart from its operation so the source's outline
 * names it without loading the operation. Section `culture`, as agreed across the built-ins.
 */
export const heritageSitesPlaceField: PlaceFieldDeclaration = {
  name: 'heritage_sites',
  section: 'culture',
  description:
    "Cultural heritage sites in Riksantikvaren's Askeladden register within 1 km of the point, nearest first.",
}
