import { statnettApi } from './statnett-upstream.js'
import * as v from 'valibot'
import { defineOperation, listSizeCheck } from '@allmenning/core/source'
import { norwegianPriceAreas, priceAreaEntity } from './price-areas.js'
import { fetchShaped, powerSituations } from './upstream-shapes.js'

/** Statnett assesses all five Norwegian areas at once; a shorter list would answer [] for the missing ones. */
const plausibleSituations = listSizeCheck<unknown[]>({
  upstream: statnettApi,
  what: 'power situation list',
  count: (areas) => areas.length,
  minimum: norwegianPriceAreas.length,
})

/** `get_power_situation`: Statnett's assessment of the power situation per Norwegian price area. */
export const getPowerSituation = defineOperation({
  description:
    "Statnett's assessment for the price areas NO1 to NO5: whether the power situation is normal or strained for the season. status is Statnett's own code, passed on unchanged (its value set is not documented).",
  parameters: {
    area: v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.toUpperCase(),
        v.picklist(norwegianPriceAreas),
        v.description('Norwegian price area, NO1 to NO5.'),
      ),
    ),
  },
  output: v.array(
    v.object({
      area: v.pipe(v.string(), v.description('Price area code, NO1 to NO5')),
      status: v.pipe(v.nullable(v.string()), v.description("Statnett's situation code, unchanged")),
      description: v.pipe(v.nullable(v.string()), v.description('Short assessment in English')),
      description_no: v.pipe(v.nullable(v.string()), v.description('Short assessment in Norwegian')),
    }),
  ),
  canonicalFieldAliases: { name: ['[].area'] },
  async run(params, ctx) {
    const situations = await fetchShaped(
      ctx.upstream(statnettApi),
      '/ElspotPowerSituation/GetPowerSituations/',
      powerSituations,
    )
    const implausible = plausibleSituations(situations, undefined)
    if (implausible) throw implausible
    const data = situations
      .map((s) => ({
        area: s.elspotId,
        status: s.powerSituation ?? null,
        description: s.translatedText?.en?.shortDescription ?? null,
        description_no: s.translatedText?.no?.shortDescription ?? null,
      }))
      .filter((s) => params.area === undefined || s.area === params.area)
    return { data }
  },
  entities: (data) => data.map((s) => priceAreaEntity(s.area)),
})
