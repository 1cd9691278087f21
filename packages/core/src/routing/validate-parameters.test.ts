import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { compileParameters } from '../compile/compile-parameters.js'
import { parseQueryString } from '../http/query-string.js'
import { validateParameters } from './validate-parameters.js'

const coordinates = compileParameters({
  lat: v.pipe(v.number(), v.minValue(-90), v.maxValue(90)),
  lon: v.pipe(v.number(), v.minValue(-180), v.maxValue(180)),
})
const validate = (query: string) => validateParameters(parseQueryString(query, 4096), coordinates)

describe('number parameters', () => {
  it('take a decimal point or a decimal comma, as the public gateway does for coordinates', () => {
    expect(validate('lat=59.9139&lon=10.7522')).toEqual({ lat: 59.9139, lon: 10.7522 })
    expect(validate('lat=59%2C9139&lon=-10,75')).toEqual({ lat: 59.9139, lon: -10.75 })
    expect(validate('lat=,5&lon=.5')).toEqual({ lat: 0.5, lon: 0.5 })
  })

  it('still refuse a thousands separator, two separators or words, naming the parameter', () => {
    for (const lat of ['1,000.5', '59,91,1', 'north', '59.9.1']) {
      expect(() => validate(`lat=${encodeURIComponent(lat)}&lon=10`)).toThrow(/lat must be a number/)
    }
    expect(() => validate('lat=91&lon=10')).toThrow(/lat must be at most 90/)
  })
})
