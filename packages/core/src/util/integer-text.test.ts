import { describe, expect, it } from 'vitest'
import { integerText } from './integer-text.js'

describe('integerText', () => {
  it.each([
    0,
    7,
    42,
    999,
    1000,
    1001,
    1010,
    1100,
    100_000,
    999_999,
    1_000_000,
    123_004_056,
    999_999_999,
    2 ** 31,
    Number.MAX_SAFE_INTEGER,
  ])('writes %d as String does', (n) => {
    expect(integerText(n)).toBe(String(n))
  })

  it('writes what is not a safe non-negative integer as String does', () => {
    for (const n of [-1, -1234, 1.5, 1e21, Number.NaN, Number.POSITIVE_INFINITY]) expect(integerText(n)).toBe(String(n))
  })
})

describe('integerText, counting down as the requests left do', () => {
  it('writes every number as String does when the digits above the last three carry over', () => {
    for (let n = 1_002_003; n >= 998_000; n--) if (integerText(n) !== String(n)) expect(integerText(n)).toBe(String(n))
    for (const n of [5_000, 4_999_000, 5_001, 7]) expect(integerText(n)).toBe(String(n))
  })
})
