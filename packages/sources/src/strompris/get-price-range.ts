import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import { defineOperation } from '@allmenning/core/source'
import { hvakosterstrommen } from './hvakosterstrommen-upstream.js'
import { addDays, daysBetween } from '../shared/oslo-time.js'
import { notPublished, type PriceDay, type PriceDays } from './price-day.js'
import { priceAreaEntity } from './price-area-search.js'
import { pricePeriod, priceFacts } from './price-output.js'
import { areaParameter, dateParameter, PRICE_NOTE } from './price-parameters.js'

/** The longest range one call covers, in days: a month, each day one file. */
export const MAX_RANGE_DAYS = 31

/** Files asked for at once. */
const FILES_AT_ONCE = 4

const rangeError = (problem: string, rule: string) =>
  new GatewayError(400, 'invalid_parameter', `Invalid parameter: end_date ${problem}`, {
    details: [{ parameter: 'end_date', problem, rule }],
  })

/**
 * Builds `get_price_range`: the spot prices of up to 31 consecutive days in one price area,
 * one list of periods.
 *
 * @example
 * const op = createGetPriceRange(createPriceDays())
 * const { data } = await op.run({ area: 'NO5', start_date: '2026-11-01', end_date: '2026-11-07', limit: 100, offset: 0 }, ctx)
 */
export function createGetPriceRange(days: PriceDays) {
  return defineOperation({
    description:
      `${PRICE_NOTE}, for every day from start_date to end_date (both included, at most ${MAX_RANGE_DAYS} days) in one price area, ` +
      'as one list of periods in time order. Days not yet published at the end of the range are listed in unpublished_dates; ' +
      'a range with no published day at all is a 404.',
    parameters: {
      area: areaParameter,
      start_date: dateParameter('First day, YYYY-MM-DD (Oslo time)'),
      end_date: dateParameter(
        `Last day, YYYY-MM-DD, on or after start_date and at most ${MAX_RANGE_DAYS - 1} days after it`,
      ),
    },
    output: v.object({
      start_date: v.string(),
      end_date: v.string(),
      ...priceFacts,
      published_dates: v.pipe(v.array(v.string()), v.description('The days of the range whose prices are in prices')),
      unpublished_dates: v.pipe(
        v.array(v.string()),
        v.description('The days of the range hvakosterstrommen.no has no file for (yet)'),
      ),
      prices: v.array(pricePeriod),
    }),
    list: 'prices',
    // A week of quarter-hours is 672 periods.
    limit: { default: 100, max: 1000 },
    cacheTtlSeconds: 900,
    canonicalFieldAliases: { timestamp: ['prices[].time_start'] },
    shapeNote:
      'data holds the periods of every day as one list, in get_prices’s field names, paged with limit and offset.',

    async run(params, ctx) {
      const span = daysBetween(params.start_date, params.end_date)
      if (span < 0) throw rangeError(`must be on or after start_date (${params.start_date})`, 'order')
      if (span >= MAX_RANGE_DAYS)
        throw rangeError(
          `must be at most ${MAX_RANGE_DAYS - 1} days after start_date (a range covers at most ${MAX_RANGE_DAYS} days)`,
          'max_range',
        )
      const client = ctx.upstream(hvakosterstrommen)
      const dates = Array.from({ length: span + 1 }, (_, i) => addDays(params.start_date, i))
      const loaded: (PriceDay | null)[] = []
      // A few files at a time: the files are static, but a month is 31 of them.
      for (let i = 0; i < dates.length; i += FILES_AT_ONCE) {
        loaded.push(
          ...(await Promise.all(dates.slice(i, i + FILES_AT_ONCE).map((date) => days.load(client, date, params.area)))),
        )
      }
      const published = loaded.filter((day): day is PriceDay => day !== null)
      if (published.length === 0) throw notPublished(params.start_date, params.area, Date.now(), params.end_date)
      return {
        data: {
          start_date: params.start_date,
          end_date: params.end_date,
          area: params.area,
          currency: 'NOK' as const,
          vat_included: false as const,
          published_dates: published.map((day) => day.date),
          unpublished_dates: dates.filter((_, i) => loaded[i] === null),
          prices: published.flatMap((day) => day.prices),
        },
        sourceApi: published[0]!.url,
      }
    },
    entities: (data) => [priceAreaEntity(data.area)],
  })
}
