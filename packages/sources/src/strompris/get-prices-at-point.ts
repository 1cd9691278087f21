import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { pointParameters } from '../shared/wgs84-point.js'
import { findPointPriceArea } from '../statnett/point-price-area.js'
import { hvakosterstrommen } from './hvakosterstrommen-upstream.js'
import { osloDate } from '../shared/oslo-time.js'
import { notPublished, type PricePeriod, type PriceDays } from './price-day.js'
import { priceAreas } from './price-areas.js'
import { priceAreaEntity } from './price-area-search.js'
import { pricePeriod } from './price-output.js'
import { PRICE_NOTE } from './price-parameters.js'
import { electricityPricePlaceField } from './place-fields.js'

/** The period that holds an instant, if the day has one. */
function periodAt(prices: PricePeriod[], now: number): PricePeriod | null {
  return prices.find((p) => Date.parse(p.time_start) <= now && now < Date.parse(p.time_end)) ?? null
}

/**
 * Builds `get_prices_at_point`: today's spot prices in the price area a WGS84 point lies in,
 * with the price now. The area is told as `statnett/get_price_area` tells it (the county of
 * the nearest address), so the two agree.
 *
 * @example
 * const op = createGetPricesAtPoint(createPriceDays())
 * const { data } = await op.run({ lat: 59.913, lon: 10.756, limit: 100, offset: 0 }, ctx) // { area: 'NO1', price_now: {...}, prices: [...] }
 */
export function createGetPricesAtPoint(days: PriceDays) {
  return defineOperation({
    description:
      `${PRICE_NOTE}, today (Oslo time) in the price area a WGS84 point lies in, with the price of the period now. The area is ` +
      'that of the county of the nearest address in Kartverket’s register (within 5 km), as statnett/get_price_area tells it; ' +
      'a point with no address near it (at sea, abroad) has area null and no prices, and note says why.',
    parameters: pointParameters(3),
    output: v.object({
      date: v.pipe(v.string(), v.description('Today, YYYY-MM-DD (Oslo)')),
      area: v.pipe(
        v.nullable(v.picklist(priceAreas)),
        v.description('Price area of the point, or null when it cannot be told'),
      ),
      area_note: v.pipe(v.string(), v.description('How certain the area is, in words')),
      currency: v.literal('NOK'),
      vat_included: v.pipe(v.literal(false), v.description('Always false: the published spot prices exclude VAT')),
      price_now: v.pipe(v.nullable(pricePeriod), v.description('The period that holds the time of the answer')),
      prices: v.array(pricePeriod),
    }),
    list: 'prices',
    limit: { default: 100, max: 100 },
    placeField: electricityPricePlaceField,
    // The price now changes every quarter-hour.
    cacheTtlSeconds: 300,
    canonicalFieldAliases: { timestamp: ['prices[].time_start'] },

    async run(params, ctx) {
      const now = Date.now()
      const date = osloDate(now)
      const found = await findPointPriceArea(ctx, params)
      const base = { date, area_note: found.note, currency: 'NOK' as const, vat_included: false as const }
      if (!found.area) return { data: { ...base, area: null, price_now: null, prices: [] } }
      const day = await days.load(ctx.upstream(hvakosterstrommen), date, found.area)
      if (!day) throw notPublished(date, found.area, now)
      return {
        data: { ...base, area: found.area, price_now: periodAt(day.prices, now), prices: day.prices },
        sourceApi: day.url,
      }
    },
    entities: (data) => (data.area ? [priceAreaEntity(data.area)] : []),
  })
}
