import { specPlaceField } from '../shared/spec-place-field.js'

/** The place field akvakultur fills, declared apart from its operation so the source's outline names it without loading the operation. */
export const aquaculturePlaceField = specPlaceField({
  name: 'aquaculture',
  section: 'maritime',
  description: 'The nearest aquaculture sites.',
})
