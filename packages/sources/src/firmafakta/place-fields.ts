import type { PlaceFieldDeclaration } from '@allmenning/core/source'

/**
 * The place field firmafakta fills, declared apart from its operation so the source's outline
 * names it without loading the operation. Companies are neither spec 4.2's points of interest
 * (OpenStreetMap's shops and cafés) nor any other of its sections, so they get a section of
 * their own, after transport.
 */
export const companiesPlaceField: PlaceFieldDeclaration = {
  name: 'companies',
  section: 'business',
  description:
    "The largest companies (Enhetsregisteret's main entities, 10 employees or more) with their business address within " +
    "1 km, nearest first, placed through Kartverket's address register.",
  order: 110,
  sectionOrder: 110,
}
