import { describe, expect, it } from 'vitest'
import { upperCaseMethod } from './upper-case-method.js'

describe('upperCaseMethod', () => {
  it('gives the methods Node writes as they are, and any other in upper case', () => {
    expect(['GET', 'HEAD', 'POST'].map(upperCaseMethod)).toEqual(['GET', 'HEAD', 'POST'])
    expect(['get', 'Head', 'post', 'patch', 'OPTIONS'].map(upperCaseMethod)).toEqual([
      'GET',
      'HEAD',
      'POST',
      'PATCH',
      'OPTIONS',
    ])
  })
})
