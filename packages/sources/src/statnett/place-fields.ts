import { specPlaceField } from '../shared/spec-place-field.js'

/** The place field Statnett fills, declared apart from its operation so the source's outline names it without loading the operation. */
export const priceAreaPlaceField = specPlaceField({
  name: 'price_area',
  section: 'energy',
  description: 'The price area (NO1–NO5) the point lies in, with its power situation.',
})
