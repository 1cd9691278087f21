import * as v from 'valibot'
import { checkUpstreamShape, type UpstreamClient } from '@allmenning/core/source'

// What driftsdata sends, as loosely as it varies: numbers may be numbers or strings,
// and extra fields are ignored. A body of another shape is a 502, never a crash.

const looseNumber = v.union([v.number(), v.string(), v.null()])

export const flowRows = v.array(
  v.looseObject({
    OutAreaElspotId: v.string(),
    InAreaElspotId: v.string(),
    Value: v.optional(looseNumber),
    MeasureDate: v.optional(v.union([v.number(), v.string(), v.null()])),
  }),
)

const cell = v.looseObject({
  value: v.optional(v.union([v.string(), v.number(), v.null()])),
  countryCode: v.optional(v.nullable(v.string())),
})
const row = v.optional(v.nullable(v.array(cell)), [])

export const detailedOverview = v.looseObject({
  MeasuredAt: v.union([v.number(), v.string()]),
  Headers: v.array(cell),
  ProductionData: row,
  NuclearData: row,
  HydroData: row,
  ThermalData: row,
  WindData: row,
  NotSpecifiedData: row,
  ConsumptionData: row,
  NetExchangeData: row,
})

export const powerSituations = v.array(
  v.looseObject({
    elspotId: v.string(),
    powerSituation: v.optional(v.nullable(v.string())),
    translatedText: v.optional(
      v.nullable(
        v.looseObject({
          en: v.optional(v.nullable(v.looseObject({ shortDescription: v.optional(v.nullable(v.string())) }))),
          no: v.optional(v.nullable(v.looseObject({ shortDescription: v.optional(v.nullable(v.string())) }))),
        }),
      ),
    ),
  }),
)

/** Fetches a driftsdata endpoint and checks its shape. */
export async function fetchShaped<S extends v.GenericSchema>(
  client: UpstreamClient,
  path: string,
  schema: S,
): Promise<v.InferOutput<S>> {
  const response = await client.getJson(path)
  return checkUpstreamShape(client, schema, response.body, path)
}
