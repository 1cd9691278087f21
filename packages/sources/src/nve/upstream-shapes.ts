import * as v from 'valibot'

// What Varsom's forecast APIs send, as much of it as this source reads. Levels come as strings
// ("2") from the flood and landslide APIs and as numbers or strings from the avalanche API, so
// both are accepted and coerced where they are read. Lists may be null where empty.

const text = v.nullish(v.string())
const level = v.nullish(v.union([v.number(), v.string()]))
const id = v.nullish(v.union([v.number(), v.string()]))
const area = v.looseObject({ Id: id, Name: text })
const areas = v.nullish(v.array(area))

/** One warning of `/Warning/County/{county}/{langkey}/{start}/{end}`, flood and landslide alike. */
export const hydroWarning = v.looseObject({
  Id: id,
  MasterId: id,
  ActivityLevel: level,
  DangerTypeName: text,
  MainText: text,
  WarningText: text,
  AdviceText: text,
  ConsequenceText: text,
  ValidFrom: text,
  ValidTo: text,
  PublishTime: text,
  NextWarningTime: text,
  CountyList: areas,
  MunicipalityList: areas,
})
export type HydroWarning = v.InferOutput<typeof hydroWarning>
export const hydroWarnings = v.array(hydroWarning)

/**
 * One avalanche warning: the Simple shape of `/AvalancheWarningByCoordinates/Simple/…`, and the
 * Detail shape of `/Warning/All/…`, which adds the counties and municipalities it covers.
 */
export const avalancheWarning = v.looseObject({
  RegId: id,
  RegionId: id,
  RegionName: text,
  RegionTypeName: text,
  DangerLevel: level,
  MainText: text,
  AvalancheDanger: text,
  ValidFrom: text,
  ValidTo: text,
  PublishTime: text,
  NextWarningTime: text,
  CountyList: areas,
  MunicipalityList: areas,
})
export type AvalancheWarning = v.InferOutput<typeof avalancheWarning>
export const avalancheWarnings = v.array(avalancheWarning)

export type VarsomArea = v.InferOutput<typeof area>
