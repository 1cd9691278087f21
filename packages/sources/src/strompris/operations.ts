import { createGetPriceRange } from './get-price-range.js'
import { createGetPrices } from './get-prices.js'
import { createGetPricesAtPoint } from './get-prices-at-point.js'
import { createPriceDays } from './price-day.js'

/**
 * The operations of one `strompris()` source, in the order of its outline, sharing its memo of
 * published days: loaded when a request first reads them.
 */
export function stromprisOperations() {
  const days = createPriceDays()
  return [createGetPrices(days), createGetPriceRange(days), createGetPricesAtPoint(days)]
}
