import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { isValidOrganisationNumber, organisationNumberCheckDigit, orgNrSchema } from './org-nr.js'

describe('organisation number check digit (MOD11)', () => {
  it('accepts real organisation numbers', () => {
    for (const orgnr of ['976030788', '923609016', '991825827', '974760673', '914778271', '810004622']) {
      expect(isValidOrganisationNumber(orgnr), orgnr).toBe(true)
    }
  })

  it('rejects every other last digit of a valid number', () => {
    for (let digit = 0; digit <= 9; digit++) {
      if (digit === 8) continue
      expect(isValidOrganisationNumber(`97603078${digit}`)).toBe(false)
    }
  })

  it('gives check digit 0 when the weighted sum is a multiple of 11', () => {
    // 3·1 + 2·0 + 7·0 + 6·0 + 5·0 + 4·0 + 3·0 + 2·4 = 11
    expect(organisationNumberCheckDigit('10000004')).toBe(0)
    expect(isValidOrganisationNumber('100000040')).toBe(true)
  })

  it('has no valid number when the remainder is 1', () => {
    // 3·4 = 12, remainder 1: the check digit would have to be 10
    expect(organisationNumberCheckDigit('40000000')).toBeUndefined()
    for (let digit = 0; digit <= 9; digit++) expect(isValidOrganisationNumber(`40000000${digit}`)).toBe(false)
  })

  it('rejects anything that is not nine digits', () => {
    for (const value of ['', '97603078', '9760307880', '97603078a', ' 976030788', '976 030 788']) {
      expect(isValidOrganisationNumber(value), value).toBe(false)
    }
  })
})

describe('orgNrSchema', () => {
  const problem = (value: unknown) => {
    const result = v.safeParse(orgNrSchema, value)
    return result.success ? undefined : result.issues.map((issue) => issue.message)
  }

  it('passes a valid number through unchanged', () => {
    expect(v.parse(orgNrSchema, '976030788')).toBe('976030788')
  })

  it('names only the length rule for digits of the wrong length', () => {
    expect(problem('97603078')).toEqual(['must be exactly 9 characters'])
    expect(problem('9760307881')).toEqual(['must be exactly 9 characters'])
  })

  it('names both rules when both are broken', () => {
    expect(problem('976 030 788')).toEqual(['must be exactly 9 characters', 'must be 9 digits'])
  })

  it('names the digits rule for nine characters that are not all digits', () => {
    expect(problem('97603078x')).toEqual(['must be 9 digits'])
  })

  it('names only the check-digit rule for nine digits with a wrong check digit', () => {
    expect(problem('976030789')).toEqual(['fails the organisation-number check digit (MOD11)'])
    expect(problem('400000000')).toEqual(['fails the organisation-number check digit (MOD11)'])
  })

  it('rejects a non-string', () => {
    expect(problem(976030788)).toBeDefined()
  })
})
