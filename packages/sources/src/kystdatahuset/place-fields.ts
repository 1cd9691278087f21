import { specPlaceField } from '../shared/spec-place-field.js'

/** The place field kystdatahuset fills, declared apart from its operation so the source's outline names it without loading the operation. */
export const portsPlaceField = specPlaceField({
  name: 'ports',
  section: 'maritime',
  description: 'The nearest ports, quays and ferry berths.',
})
