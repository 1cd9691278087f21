import * as v from 'valibot'
import { priceAreas } from './price-areas.js'

/** One price period, in the public gateway's field names. */
export const pricePeriod = v.object({
  time_start: v.pipe(
    v.string(),
    v.description('Start of the period, ISO 8601 with Oslo’s offset (+01:00 or +02:00), as published'),
  ),
  time_end: v.pipe(v.string(), v.description('End of the period, likewise')),
  NOK_per_kWh: v.pipe(
    v.number(),
    v.description('Spot price in kroner (not øre) per kWh, excluding VAT; may be negative'),
  ),
})

/** The fields every price answer states beside its periods. */
export const priceFacts = {
  area: v.pipe(v.picklist(priceAreas), v.description('Price area')),
  currency: v.pipe(v.literal('NOK'), v.description('Currency of NOK_per_kWh')),
  vat_included: v.pipe(
    v.literal(false),
    v.description('Always false: the published spot prices exclude VAT (25 % outside most of NO4)'),
  ),
}
