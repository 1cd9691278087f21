import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { hvakosterstrommen } from './hvakosterstrommen-upstream.js'
import { osloDate } from '../shared/oslo-time.js'
import { notPublished, type PriceDays } from './price-day.js'
import { priceAreaEntity } from './price-area-search.js'
import { pricePeriod, priceFacts } from './price-output.js'
import { areaParameter, dateParameter, PRICE_NOTE } from './price-parameters.js'

/**
 * Builds `get_prices`: one day's spot prices in one price area.
 *
 * @example
 * const op = createGetPrices(createPriceDays())
 * const { data } = await op.run({ area: 'NO1', date: '2026-11-25', limit: 100, offset: 0 }, ctx) // { date, area, prices: [96 periods], ... }
 */
export function createGetPrices(days: PriceDays) {
  return defineOperation({
    description:
      `${PRICE_NOTE}, for one day (Oslo time) in one price area, from hvakosterstrommen.no. A day has 24 hourly periods ` +
      'until 30 September 2025 and 96 quarter-hours since (23/25 or 92/100 on the days summer time starts and ends). ' +
      "Tomorrow's prices appear after the day-ahead auction, usually from about 13:00; a day not yet published is a 404.",
    parameters: {
      area: areaParameter,
      date: v.optional(dateParameter('The day, YYYY-MM-DD in Oslo time; today in Oslo when left out')),
    },
    output: v.object({
      date: v.pipe(v.string(), v.description('The day, YYYY-MM-DD (Oslo)')),
      ...priceFacts,
      resolution_minutes: v.pipe(
        v.nullable(v.number()),
        v.description('Minutes per period: 60 (hourly) or 15 (quarter-hourly)'),
      ),
      prices: v.array(pricePeriod),
    }),
    list: 'prices',
    // A day has at most 100 periods: the whole day fits one page.
    limit: { default: 100, max: 100 },
    // A published day never changes; the gateway keeps it briefly because "today" moves at midnight.
    cacheTtlSeconds: 900,
    canonicalFieldAliases: { timestamp: ['prices[].time_start'] },
    shapeNote:
      'data is the public gateway’s {date, area, prices: [{time_start, time_end, NOK_per_kWh}]}, with currency, vat_included and resolution_minutes beside it.',

    async run(params, ctx) {
      const date = params.date ?? osloDate(Date.now())
      const day = await days.load(ctx.upstream(hvakosterstrommen), date, params.area)
      if (!day) throw notPublished(date, params.area, Date.now())
      return {
        data: {
          date,
          area: params.area,
          currency: 'NOK' as const,
          vat_included: false as const,
          resolution_minutes: day.resolutionMinutes,
          prices: day.prices,
        },
        sourceApi: day.url,
      }
    },
    entities: (data) => [priceAreaEntity(data.area)],
  })
}
