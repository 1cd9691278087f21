import { createGetPriceRange } from './get-price-range.js'
import { createGetPrices } from './get-prices.js'
import { createGetPricesAtPoint } from './get-prices-at-point.js'
import { createPriceDays } from './price-day.js'

/**
 * The operations of one `strompris()` source, keyed as its outline reads them, sharing its memo of
 * published days: loaded when a request first reads them.
 */
export function stromprisOperations() {
  const days = createPriceDays()
  return {
    getPrices: createGetPrices(days),
    getPriceRange: createGetPriceRange(days),
    getPricesAtPoint: createGetPricesAtPoint(days),
  }
}
