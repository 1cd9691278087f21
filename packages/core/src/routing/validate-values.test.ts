import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { compileParameters } from '../compile/compile-parameters.js'
import { parseQueryString } from '../http/query-string.js'
import { validateParameters, validateValues } from './validate-parameters.js'

const parameters = compileParameters({
  area: v.picklist(['NO1', 'NO2']),
  lat: v.optional(v.pipe(v.number(), v.minValue(-90), v.maxValue(90))),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50)), 10),
  detailed: v.optional(v.boolean(), false),
  note: v.optional(v.string()),
})

/** What validating the same values as query text gives: the answer, or the error's code and details. */
function judged(run: () => unknown) {
  try {
    return { value: run() }
  } catch (error) {
    const { code, message, details } = error as { code: string; message: string; details: unknown }
    return { code, message, details }
  }
}

const asQuery = (values: Record<string, unknown>) =>
  Object.entries(values)
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
    .join('&')

describe('parameters given as values', () => {
  it.each([
    ['typed values', { area: 'NO1', limit: 5, detailed: true, lat: 59.91 }],
    ['values as text', { area: 'NO2', limit: '5', detailed: 'yes', lat: '59,91' }],
    [
      'a number for a text parameter, and null and empty text left out',
      { area: 'NO1', note: 42, lat: null, limit: '' },
    ],
    ['a limit out of bounds and a fraction for an integer', { area: 'NO1', limit: 51, lat: 1.5e-7 }],
    ['a fraction where an integer goes', { area: 'NO1', limit: 2.5 }],
    ['a word where a flag goes, and an unknown area', { area: 'SE3', detailed: 'maybe' }],
    ['an unknown name', { area: 'NO1', when: 'now' }],
    ['a required one missing', { limit: 3 }],
  ])('%s are judged as the same text in a query string', (_name, values) => {
    expect(judged(() => validateValues(values, parameters))).toEqual(
      judged(() => validateParameters(parseQueryString(asQuery(values), 4096), parameters)),
    )
  })

  it('refuse a value that has no text form, naming it', () => {
    expect(() => validateValues({ area: 'NO1', note: { x: 1 } }, parameters)).toThrow(
      /note must be a string, number or boolean \(got object\)/,
    )
    expect(() => validateValues({ area: ['NO1'] }, parameters)).toThrow(
      /area must be a string, number or boolean \(got an array\)/,
    )
  })
})
