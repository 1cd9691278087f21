import { statnettApi } from './statnett-upstream.js'
import * as v from 'valibot'
import { defineOperation, listSizeCheck } from '@allmenning/core/source'
import { epochMsToIso, parseStatnettNumber } from './parse-number.js'
import { flowAreas, isKnownArea, priceAreaEntity } from './price-areas.js'
import { fetchShaped, flowRows } from './upstream-shapes.js'

export const areaCode = v.pipe(
  v.string(),
  v.trim(),
  v.toUpperCase(),
  v.picklist(flowAreas),
  v.description('Price area or neighbouring country; only interconnectors touching this area are returned.'),
)

/**
 * The flow map always lists every interconnector (Norway alone has more than ten); an empty
 * one is a failed answer, which would otherwise be cached as "no flow" for every area.
 */
const plausibleFlow = listSizeCheck<unknown[]>({
  upstream: statnettApi,
  what: 'physical flow',
  count: (rows) => rows.length,
})

const flow = v.object({
  from_area: v.pipe(v.string(), v.description('Area the flow is measured out of')),
  to_area: v.pipe(v.string(), v.description('Area the flow is measured into')),
  flow_mw: v.pipe(
    v.nullable(v.number()),
    v.description('MW from from_area to to_area; negative when power flows the other way; null when missing'),
  ),
  time: v.pipe(v.nullable(v.string()), v.description('Measurement time, ISO 8601 UTC')),
})

/** `get_physical_flow`: the current physical flow on every interconnector. */
export const getPhysicalFlow = defineOperation({
  description:
    'Current physical flow in MW on every interconnector between Nordic and Baltic price areas and their neighbours. A positive flow_mw goes from from_area to to_area, a negative one the other way.',
  parameters: { area: v.optional(areaCode) },
  output: v.array(flow),
  canonicalFieldAliases: { timestamp: ['[].time'] },
  async run(params, ctx) {
    const rows = await fetchShaped(ctx.upstream(statnettApi), '/PhysicalFlowMap/GetFlow', flowRows)
    const implausible = plausibleFlow(rows, undefined)
    if (implausible) throw implausible
    const flows = rows.map((row) => ({
      from_area: row.OutAreaElspotId,
      to_area: row.InAreaElspotId,
      flow_mw: parseStatnettNumber(row.Value),
      time: epochMsToIso(row.MeasureDate),
    }))
    const area = params.area
    return { data: area === undefined ? flows : flows.filter((f) => f.from_area === area || f.to_area === area) }
  },
  // An area Statnett starts to send before the source knows it is not linked: its link would be a 400.
  entities: (data) => data.flatMap((f) => [f.from_area, f.to_area].filter(isKnownArea).map(priceAreaEntity)),
})
