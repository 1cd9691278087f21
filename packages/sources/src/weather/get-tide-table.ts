import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { kartverketTide } from './kartverket-tide-upstream.js'
import { tidesPlaceField } from './place-fields.js'
import { isoSecond, locationQuery, readTideDocument, TIDE_API_PATH } from './tide-document.js'
import { datumNote, datumParameter, noDataNote, noDataRaw, rawLocation, tidePoint } from './tide-parameters.js'

const DAY_MS = 86_400_000

/**
 * `get_tide_table`: high and low water at a point on the Norwegian coast, from Kartverket's
 * tide predictions, from the start of today (UTC) for some days.
 *
 * @example
 * // GET /api/v1/kilder/weather/get_tide_table?lat=60.398&lon=5.32
 * // data: [{ time: '2026-11-25T03:12:00Z', height_cm: 152.4, kind: 'high', datum: 'CD' }, ...]
 */
export const getTideTable = defineOperation({
  description:
    'High and low water at a point on the Norwegian coast (a tide table), from Kartverket’s predictions of the ' +
    `astronomical tide, from 00:00 UTC today for the given number of days. Weather is not included. ${datumNote} ` +
    noDataNote,
  parameters: {
    ...tidePoint,
    days: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(14),
        v.description('Days from 00:00 UTC today, 1..14 (default 3)'),
      ),
      3,
    ),
    datum: datumParameter,
  },
  output: v.array(
    v.object({
      time: v.pipe(v.string(), v.description('Time of the high or low water, ISO 8601 UTC')),
      height_cm: v.pipe(v.number(), v.description('Predicted height, cm above the datum')),
      kind: v.picklist(['high', 'low']),
      datum: v.pipe(v.string(), v.description('Vertical datum of height_cm: CD, MSL or NN2000')),
    }),
  ),
  limit: { default: 100, max: 100 },
  placeField: tidesPlaceField,
  // The predictions are astronomical and do not change; the window moves at midnight UTC.
  cacheTtlSeconds: 3600,
  canonicalFieldAliases: { timestamp: ['[].time'] },
  shapeNote: 'data is the public gateway’s bare list [{time, height_cm, kind: high|low}], with datum beside each.',

  async run(params, ctx) {
    const client = ctx.upstream(kartverketTide)
    const from = Math.floor(Date.now() / DAY_MS) * DAY_MS
    const response = await client.getText(TIDE_API_PATH, {
      query: locationQuery(params, params.datum, from, from + params.days * DAY_MS, 'tab'),
    })
    const doc = await readTideDocument(client, response.body)
    if ('noData' in doc) return { data: [], rawValues: noDataRaw(doc.noData) }
    const rows = (doc.series.get('prediction') ?? [])
      .filter(
        (value): value is typeof value & { flag: 'high' | 'low' } => value.flag === 'high' || value.flag === 'low',
      )
      .sort((a, b) => a.time - b.time)
      .map((value) => ({
        time: isoSecond(value.time),
        height_cm: value.cm,
        kind: value.flag,
        datum: doc.referenceLevel,
      }))
    return { data: rows, rawValues: rawLocation(doc.location, doc.referenceLevel) }
  },
})
