import * as v from 'valibot'
import { priceAreas } from './price-areas.js'

/** `area`: one of the five Norwegian price areas. */
export const areaParameter = v.pipe(
  v.picklist(priceAreas),
  v.description(
    'Price area: NO1 Øst (Oslo), NO2 Sør (Kristiansand), NO3 Midt (Trondheim), NO4 Nord (Tromsø), NO5 Vest (Bergen)',
  ),
)

const isCalendarDate = (text: string) => {
  const ms = Date.parse(`${text}T00:00:00Z`)
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === text
}

/**
 * A calendar date parameter, `YYYY-MM-DD`, checked to exist (no 2026-02-30), with the rule in
 * the 400's message.
 *
 * @example
 * parameters: { date: v.optional(dateParameter('The day, in Oslo time')) }
 */
export function dateParameter(description: string) {
  return v.pipe(
    v.string(),
    v.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD'),
    v.check(isCalendarDate, 'must be a date that exists in the calendar'),
    v.description(description),
  )
}

/** What the prices are, said in each operation's description and in `data`. */
export const PRICE_NOTE =
  'Day-ahead spot prices in NOK per kWh, excluding VAT (25 % in NO1, NO2, NO3 and NO5; most of NO4 is exempt), grid rent and supplier mark-up'
