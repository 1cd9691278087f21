import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { pointParameters } from '../shared/wgs84-point.js'
import { findPointPriceArea } from './point-price-area.js'
import { priceAreaEntity, priceAreaNames } from './price-areas.js'
import { statnettApi } from './statnett-upstream.js'
import { fetchShaped, powerSituations } from './upstream-shapes.js'
import { priceAreaPlaceField } from './place-fields.js'

/**
 * `get_price_area`: the Norwegian price area (NO1–NO5) a point lies in, with Statnett's
 * power situation there. Statnett publishes no map of the areas, so the point's county (from
 * the municipality of the nearest address in Kartverket's register) decides, and the answer
 * says how certain that is.
 */
export const getPriceArea = defineOperation({
  description:
    'The Norwegian price area (NO1–NO5) a WGS84 point lies in, with Statnett’s power situation there. Decided by ' +
    'the county of the nearest address in Kartverket’s register (within 5 km): price-area borders follow the grid, ' +
    'so near them the area may differ, which note says. A point with no address within 5 km (at sea, abroad) has area null.',
  parameters: pointParameters(3),
  output: v.object({
    area: v.pipe(
      v.nullable(v.picklist(['NO1', 'NO2', 'NO3', 'NO4', 'NO5'])),
      v.description('Price area, or null when it cannot be told'),
    ),
    area_name: v.nullable(v.string()),
    basis: v.pipe(
      v.picklist(['county', 'none']),
      v.description('What decided the area: the county of the nearest address, or nothing found'),
    ),
    municipality_number: v.nullable(v.string()),
    county: v.nullable(v.string()),
    note: v.pipe(v.string(), v.description('How certain the area is, in words')),
    power_situation: v.nullable(
      v.object({
        status: v.pipe(v.nullable(v.string()), v.description("Statnett's situation code, unchanged")),
        description: v.nullable(v.string()),
        description_no: v.nullable(v.string()),
      }),
    ),
  }),
  placeField: priceAreaPlaceField,
  canonicalFieldAliases: { name: ['area_name'] },
  async run(params, ctx) {
    const found = await findPointPriceArea(ctx, params)
    if (!found.area) {
      return {
        data: {
          area: null,
          area_name: null,
          basis: 'none' as const,
          municipality_number: found.municipality,
          county: null,
          note: found.note,
          power_situation: null,
        },
      }
    }
    const situations = await fetchShaped(
      ctx.upstream(statnettApi),
      '/ElspotPowerSituation/GetPowerSituations/',
      powerSituations,
    )
    const situation = situations.find((s) => s.elspotId === found.area)
    return {
      data: {
        area: found.area,
        area_name: priceAreaNames[found.area] ?? found.area,
        basis: 'county' as const,
        municipality_number: found.municipality,
        county: found.county,
        note: found.note,
        power_situation: situation
          ? {
              status: situation.powerSituation ?? null,
              description: situation.translatedText?.en?.shortDescription ?? null,
              description_no: situation.translatedText?.no?.shortDescription ?? null,
            }
          : null,
      },
    }
  },
  entities: (data) => (data.area ? [priceAreaEntity(data.area)] : []),
})
