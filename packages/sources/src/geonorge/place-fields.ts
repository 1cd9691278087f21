import { specPlaceField } from '../shared/spec-place-field.js'

// The place fields geonorge fills, declared apart from their operations so the source's outline names them without loading the operations.

/** Filled by `find_addresses_nearby`. */
export const addressesPlaceField = specPlaceField({
  name: 'addresses',
  section: 'geography',
  description: 'The nearest addresses.',
  summary: true,
})

/** Filled by `find_place_names_nearby`. */
export const placeNamesPlaceField = specPlaceField({
  name: 'place_names',
  section: 'geography',
  description: 'The nearest place names.',
  summary: true,
})
