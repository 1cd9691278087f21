import { specPlaceField } from '../shared/spec-place-field.js'

/** The place field strompris fills, declared apart from its operation so the source's outline names it without loading the operation. */
export const electricityPricePlaceField = specPlaceField({
  name: 'electricity_price',
  section: 'energy',
  description:
    "Today's spot electricity prices (NOK/kWh, excluding VAT) in the point's price area, with the price now.",
})
