import { describe, expect, it } from 'vitest'
import { candidateShares } from './candidate-shares.js'

describe('candidateShares', () => {
  it('gives one municipality the whole cap, and several their part of the samples, the centre the remainder', () => {
    expect(candidateShares([9], 100, 10)).toEqual([100])
    expect(candidateShares([6, 2, 1], 100, 10)).toEqual([67, 22, 11])
  })

  it('gives every municipality at least the minimum, taking it from the largest, and never more than the cap in all', () => {
    const shares = candidateShares([14, 1, 1, 1], 100, 10)
    expect(shares).toEqual([70, 10, 10, 10])
    for (const samples of [
      [1, 1, 1, 1, 1, 1],
      [16, 1],
      [3, 3, 3, 3, 3],
    ]) {
      const result = candidateShares(samples, 100, 10)
      expect(result.reduce((a, b) => a + b, 0)).toBe(100)
      expect(Math.min(...result)).toBeGreaterThanOrEqual(10)
    }
  })

  it('asks for nothing when nothing was sampled', () => {
    expect(candidateShares([], 100, 10)).toEqual([])
  })
})
