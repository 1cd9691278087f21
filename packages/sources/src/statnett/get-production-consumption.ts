import { statnettApi } from './statnett-upstream.js'
import * as v from 'valibot'
import { defineOperation, UpstreamError } from '@allmenning/core/source'
import { epochMsToIso, parseStatnettNumber } from './parse-number.js'
import { detailedOverview, fetchShaped } from './upstream-shapes.js'

const figures = v.object({
  production_mw: v.nullable(v.number()),
  nuclear_mw: v.nullable(v.number()),
  hydro_mw: v.nullable(v.number()),
  thermal_mw: v.nullable(v.number()),
  wind_mw: v.nullable(v.number()),
  not_specified_mw: v.nullable(v.number()),
  consumption_mw: v.nullable(v.number()),
  net_exchange_mw: v.nullable(v.number()),
})

type Figures = v.InferOutput<typeof figures>

const rows: [keyof Figures, keyof v.InferOutput<typeof detailedOverview>][] = [
  ['production_mw', 'ProductionData'],
  ['nuclear_mw', 'NuclearData'],
  ['hydro_mw', 'HydroData'],
  ['thermal_mw', 'ThermalData'],
  ['wind_mw', 'WindData'],
  ['not_specified_mw', 'NotSpecifiedData'],
  ['consumption_mw', 'ConsumptionData'],
  ['net_exchange_mw', 'NetExchangeData'],
]

/** `get_production_consumption`: the latest Nordic and Baltic production by type, consumption and net exchange. */
export const getProductionConsumption = defineOperation({
  description:
    'The latest production by source (nuclear, hydro, thermal, wind, not specified), consumption and net exchange in MW per Nordic and Baltic country (SE, DK, NO, FI, EE, LT, LV), with the total.',
  parameters: {},
  output: v.object({
    measured_at: v.pipe(v.nullable(v.string()), v.description('Measurement time, ISO 8601 UTC')),
    countries: v.pipe(v.record(v.string(), figures), v.description('Figures per country code')),
    total: v.pipe(figures, v.description('Sum over all countries, as Statnett computes it')),
  }),
  canonicalFieldAliases: { timestamp: ['measured_at'] },
  async run(_params, ctx) {
    const client = ctx.upstream(statnettApi)
    const overview = await fetchShaped(client, '/ProductionConsumption/GetLatestDetailedOverview', detailedOverview)
    // Column 0 is a row label and the last column the total; the columns between are
    // countries, named by each cell's countryCode in the newer shape, else by the header.
    const headers = overview.Headers.map((h) =>
      h.value === undefined || h.value === null ? '' : String(h.value).trim(),
    )
    if (headers.length < 3)
      throw new UpstreamError(client, 'invalid_response', 'answered the production overview without country columns')
    const empty = (): Figures => ({
      production_mw: null,
      nuclear_mw: null,
      hydro_mw: null,
      thermal_mw: null,
      wind_mw: null,
      not_specified_mw: null,
      consumption_mw: null,
      net_exchange_mw: null,
    })
    const countries: Record<string, Figures> = {}
    const total = empty()
    const last = headers.length - 1
    for (const [field, key] of rows) {
      const cells = (overview[key] ?? []) as { value?: unknown; countryCode?: string | null }[]
      cells.forEach((cell, index) => {
        if (index === 0 || index > last) return
        if (index === last) {
          total[field] = parseStatnettNumber(cell.value)
          return
        }
        const code = (cell.countryCode ?? headers[index] ?? '').toUpperCase()
        if (code === '') return
        countries[code] ??= empty()
        countries[code][field] = parseStatnettNumber(cell.value)
      })
    }
    return { data: { measured_at: epochMsToIso(overview.MeasuredAt), countries, total } }
  },
})
