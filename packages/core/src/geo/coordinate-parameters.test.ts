import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { compileParameters } from '../compile/compile-parameters.js'
import { validateParameters } from '../http/validate-parameters.js'
import { parseQueryString } from '../http/query-string.js'
import { latitudeParameter, longitudeParameter, radiusKmParameter } from './coordinate-parameters.js'

const parameters = compileParameters({ lat: latitudeParameter(), lon: longitudeParameter(), radius_km: radiusKmParameter({ fallback: 10, max: 50 }) })
const problems = (query: string) => {
  try {
    validateParameters(parseQueryString(query, 4096), parameters)
    return []
  } catch (error) {
    return (error as { details: unknown[] }).details
  }
}

describe('coordinate parameters', () => {
  it('accept WGS84 degrees and default the radius', () => {
    expect(validateParameters(parseQueryString('lat=59.91&lon=-10.75', 4096), parameters)).toEqual({ lat: 59.91, lon: -10.75, radius_km: 10 })
  })

  it('name the bound a coordinate or radius broke', () => {
    expect(problems('lat=90.5&lon=10')).toEqual([{ parameter: 'lat', problem: 'must be at most 90', rule: 'max_value' }])
    expect(problems('lat=-91&lon=-180.1')).toEqual([
      { parameter: 'lat', problem: 'must be at least -90', rule: 'min_value' },
      { parameter: 'lon', problem: 'must be at least -180', rule: 'min_value' },
    ])
    expect(problems('lat=1&lon=1&radius_km=0')).toEqual([{ parameter: 'radius_km', problem: 'must be greater than 0', rule: 'gt_value' }])
    expect(problems('lat=1&lon=1&radius_km=51')).toEqual([{ parameter: 'radius_km', problem: 'must be at most 50', rule: 'max_value' }])
  })

  it('publish their bounds in JSON Schema', () => {
    expect(parameters[0]!.jsonSchema).toMatchObject({ type: 'number', minimum: -90, maximum: 90 })
    expect(parameters[2]!.jsonSchema).toMatchObject({ type: 'number', exclusiveMinimum: 0, maximum: 50, default: 10 })
    expect(v.is(latitudeParameter(), 45)).toBe(true)
  })
})
