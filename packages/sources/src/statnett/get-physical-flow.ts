import { statnettApi } from './statnett-upstream.js'
import * as v from 'valibot'
import { defineOperation } from '@allmenning/core'
import { epochMsToIso, parseStatnettNumber } from './parse-number.js'
import { priceAreaEntity } from './price-areas.js'
import { fetchShaped, flowRows } from './upstream-shapes.js'

export const areaCode = v.pipe(
  v.string(),
  v.trim(),
  v.toUpperCase(),
  v.regex(/^[A-Z]{2}\d?$/, 'must be a price area code such as NO1, SE3, DK1 or FI'),
  v.description('Price area code; only interconnectors touching this area are returned.'),
)

const flow = v.object({
  from_area: v.pipe(v.string(), v.description('Area the flow is measured out of')),
  to_area: v.pipe(v.string(), v.description('Area the flow is measured into')),
  flow_mw: v.pipe(v.nullable(v.number()), v.description('MW from from_area to to_area; negative when power flows the other way; null when missing')),
  time: v.pipe(v.nullable(v.string()), v.description('Measurement time, ISO 8601 UTC')),
})

/** `get_physical_flow`: the current physical flow on every interconnector. */
export const getPhysicalFlow = defineOperation({
  name: 'get_physical_flow',
  description:
    'Current physical flow in MW on every interconnector between Nordic and Baltic price areas and their neighbours. A positive flow_mw goes from from_area to to_area, a negative one the other way.',
  parameters: { area: v.optional(areaCode) },
  output: v.array(flow),
  canonicalFieldAliases: { timestamp: ['[].time'] },
  async run(params, ctx) {
    const rows = await fetchShaped(ctx.upstream(statnettApi), '/PhysicalFlowMap/GetFlow', flowRows)
    const flows = rows.map((row) => ({
      from_area: row.OutAreaElspotId,
      to_area: row.InAreaElspotId,
      flow_mw: parseStatnettNumber(row.Value),
      time: epochMsToIso(row.MeasureDate),
    }))
    const area = params.area
    return { data: area === undefined ? flows : flows.filter((f) => f.from_area === area || f.to_area === area) }
  },
  entities: (data) => data.flatMap((f) => [priceAreaEntity(f.from_area), priceAreaEntity(f.to_area)]),
})
