import * as v from 'valibot'

// What HydAPI sends, as much of it as this source reads (docs/upstreams/nve_hydapi.md). Every
// answer is the envelope {currentLink, apiVersion, license, createdAt, queryTime, itemCount,
// data}; its swagger declares most station fields nullable, so they are read as such.

const text = v.nullish(v.string())
const number = v.nullish(v.number())

/** The envelope of every HydAPI answer; its items are checked one by one (see hydroStationsFrom). */
export const hydapiEnvelope = v.looseObject({
  itemCount: v.nullish(v.number()),
  data: v.nullish(v.array(v.unknown())),
})

/** One period of a series at one resolution: 0 (instantaneous, as measured), 60 (hourly) or 1440 (daily) minutes. */
const resolution = v.looseObject({
  resTime: number,
  method: text,
  dataFromTime: text,
  dataToTime: text,
})

/** A series of `/Stations`' `seriesList`: `parameterName` is Norwegian, and there is no English name here. */
const seriesShort = v.looseObject({
  parameterName: text,
  parameter: v.number(),
  versionNo: number,
  unit: text,
  serieFrom: text,
  serieTo: text,
  resolutionList: v.nullish(v.array(resolution)),
})

/** One station of `/Stations`, of its hundred fields the ones this source answers. */
export const hydapiStation = v.looseObject({
  stationId: v.string(),
  stationName: text,
  latitude: number,
  longitude: number,
  masl: number,
  riverName: text,
  councilNumber: text,
  councilName: text,
  countyName: text,
  stationStatusName: text,
  seriesList: v.nullish(v.array(seriesShort)),
})
export type HydapiStation = v.InferOutput<typeof hydapiStation>

/** One series of `/Observations`: without `ReferenceTime`, its latest observation only. */
export const hydapiObservationSeries = v.looseObject({
  stationId: v.string(),
  parameter: v.number(),
  parameterName: text,
  parameterNameEng: text,
  unit: text,
  observations: v.nullish(
    v.array(
      v.looseObject({
        time: v.string(),
        // HydAPI sends null for a value it does not have (a gap, a station out of order).
        value: number,
      }),
    ),
  ),
})
export const hydapiObservations = v.looseObject({ data: v.nullish(v.array(hydapiObservationSeries)) })
