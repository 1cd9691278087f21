import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { kartverketTide } from './kartverket-tide-upstream.js'
import { isoSecond, locationQuery, readTideDocument, TIDE_API_PATH, type TideValue } from './tide-document.js'
import { datumNote, datumParameter, noDataNote, noDataRaw, rawLocation, tidePoint } from './tide-parameters.js'

const HOUR_MS = 3_600_000
const tenth = (cm: number) => Math.round(cm * 10) / 10

const byTime = (values: TideValue[] | undefined) => new Map((values ?? []).map((value) => [value.time, value.cm]))

/**
 * `get_tide_forecast`: the sea level at a point on the Norwegian coast hour by hour, from
 * Kartverket: the astronomical tide, the weather's effect (storm surge) and their sum, the
 * forecast sea level, measured instead where the hour has passed.
 *
 * @example
 * // GET /api/v1/kilder/weather/get_tide_forecast?lat=59.908&lon=10.735
 * // data: [{ time: '2026-11-25T05:00:00Z', tide_cm: 71.2, sea_level_cm: 80.4, surge_cm: 9.2, sea_level_basis: 'forecast', datum: 'CD' }, ...]
 */
export const getTideForecast = defineOperation({
  description:
    'Sea level at a point on the Norwegian coast, hour by hour from the current hour, from Kartverket’s water-level API: ' +
    'tide_cm is the astronomical tide, surge_cm the weather’s effect (storm surge, from MET Norway’s model, which ' +
    'Kartverket adds), sea_level_cm the forecast level (tide plus surge; the measured level for an hour that has ' +
    `passed). Kartverket forecasts the surge some 2–3 days ahead; later hours have the tide only. ${datumNote} ` +
    noDataNote,
  parameters: {
    ...tidePoint,
    hours: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(72),
        v.description('How many hours, from the current one: 1..72 (default 48)'),
      ),
      48,
    ),
    datum: datumParameter,
  },
  output: v.array(
    v.object({
      time: v.pipe(v.string(), v.description('The hour, ISO 8601 UTC')),
      tide_cm: v.pipe(v.nullable(v.number()), v.description('Astronomical tide, cm above the datum')),
      sea_level_cm: v.pipe(
        v.nullable(v.number()),
        v.description('Sea level: forecast, or measured for an hour that has passed; cm above the datum'),
      ),
      surge_cm: v.pipe(
        v.nullable(v.number()),
        v.description('Weather effect (storm surge), cm; null beyond the forecast'),
      ),
      sea_level_basis: v.pipe(
        v.nullable(v.picklist(['observation', 'forecast'])),
        v.description('Where sea_level_cm comes from'),
      ),
      datum: v.pipe(v.string(), v.description('Vertical datum of tide_cm and sea_level_cm: CD, MSL or NN2000')),
    }),
  ),
  limit: { default: 100, max: 100 },
  // Kartverket's forecast follows MET's surge model, updated some times an hour.
  cacheTtlSeconds: 900,
  canonicalFieldAliases: { timestamp: ['[].time'] },
  shapeNote:
    'data is the public gateway’s bare list [{time, tide_cm, sea_level_cm, surge_cm}], with sea_level_basis and datum beside each.',

  async run(params, ctx) {
    const client = ctx.upstream(kartverketTide)
    const from = Math.floor(Date.now() / HOUR_MS) * HOUR_MS
    const to = from + (params.hours - 1) * HOUR_MS
    const response = await client.getText(TIDE_API_PATH, {
      query: locationQuery(params, params.datum, from, to, 'all'),
    })
    const doc = await readTideDocument(client, response.body)
    if ('noData' in doc) return { data: [], rawValues: noDataRaw(doc.noData) }
    const tide = byTime(doc.series.get('prediction'))
    const observed = byTime(doc.series.get('observation'))
    const surge = byTime(doc.series.get('weathereffect'))
    const forecast = byTime(doc.series.get('forecast'))
    const times = [...new Set([...tide.keys(), ...forecast.keys()])]
      .filter((t) => t >= from && t <= to)
      .sort((a, b) => a - b)
    const rows = times.map((t) => {
      const predicted = tide.get(t)
      const measured = observed.get(t)
      const expected = forecast.get(t)
      // The surge is the forecast less the tide when Kartverket sends no weathereffect for the hour.
      const weather =
        surge.get(t) ?? (expected !== undefined && predicted !== undefined ? expected - predicted : undefined)
      const level = measured ?? expected
      return {
        time: isoSecond(t),
        tide_cm: predicted === undefined ? null : tenth(predicted),
        sea_level_cm: level === undefined ? null : tenth(level),
        surge_cm: weather === undefined ? null : tenth(weather),
        sea_level_basis:
          measured !== undefined ? ('observation' as const) : expected !== undefined ? ('forecast' as const) : null,
        datum: doc.referenceLevel,
      }
    })
    return { data: rows, rawValues: rawLocation(doc.location, doc.referenceLevel) }
  },
})
