import type { PlaceFieldDeclaration } from '@allmenning/core/source'

/**
 * The place field `arkivverket` fills, declared apart from its operation so the source's outline
 * names it without loading the operation. A section of its own: no spec section is about history.
 */
export const censusPropertiesPlaceField: PlaceFieldDeclaration = {
  name: 'census_properties',
  section: 'culture',
  description:
    'Dwelling places of the 1910 census (farms and street addresses) within 500 m of the point, with who lived there.',
}
