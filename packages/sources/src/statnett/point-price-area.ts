import type { OperationContext } from '@allmenning/core/source'
import { MUNICIPALITY_SEARCH_RADIUS_M, municipalityOfPoint } from '../geonorge/municipality-of-point.js'
import type { Wgs84Point } from '../shared/wgs84-point.js'
import { countyBorderNotes, countyPriceAreas } from './county-price-areas.js'

/** How far from the point an address may be and still say which municipality the point is in. */
export const PRICE_AREA_SEARCH_RADIUS_M = MUNICIPALITY_SEARCH_RADIUS_M

/** The price area of a point, and how it was told. */
export interface PointPriceArea {
  area: 'NO1' | 'NO2' | 'NO3' | 'NO4' | 'NO5' | null
  /** Municipality number of the nearest address, or null when none is within the radius. */
  municipality: string | null
  /** Name of the county that decided the area. */
  county: string | null
  /** How certain the area is, in words. */
  note: string
}

/**
 * The Norwegian price area a point lies in, told by the county of the nearest address in
 * Kartverket's register (Statnett publishes no map of the areas), through `municipalityOfPoint`;
 * the operation's source must list `kartverketAdresser` among its upstreams. Shared by the operations
 * that need a point's area (`statnett/get_price_area`, `strompris/get_prices_at_point`), so
 * they agree on every point and on what they say about the border counties.
 *
 * @example
 * const found = await findPointPriceArea(ctx, { lat: 59.913, lon: 10.756 })
 * // { area: 'NO1', municipality: '0301', county: 'Oslo', note: 'The area of Oslo, the county of the nearest address.' }
 */
export async function findPointPriceArea(ctx: OperationContext, point: Wgs84Point): Promise<PointPriceArea> {
  const municipality = (await municipalityOfPoint(ctx, point))?.number ?? null
  const countyNumber = municipality?.slice(0, 2)
  const rule = countyNumber ? countyPriceAreas[countyNumber] : undefined
  if (!rule) {
    const note = municipality
      ? `Municipality ${municipality} is in no county this source can place in a price area`
      : `No address within ${PRICE_AREA_SEARCH_RADIUS_M / 1000} km of the point, so its price area cannot be told (at sea, or outside Norway)`
    return { area: null, municipality, county: null, note }
  }
  const border = countyNumber ? countyBorderNotes[countyNumber] : undefined
  return {
    area: rule.area,
    municipality,
    county: rule.county,
    note: `The area of ${rule.county}, the county of the nearest address${border ? `; ${border}, so near those parts it may differ` : ''}.`,
  }
}
