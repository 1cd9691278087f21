import { describe, expect, it } from 'vitest'
import { mapConcurrently } from './map-concurrently.js'

describe('mapConcurrently', () => {
  it('keeps the order of the items and never has more than the limit in flight', async () => {
    let inFlight = 0
    let most = 0
    const result = await mapConcurrently([30, 5, 20, 1, 10, 2], 2, async (ms) => {
      inFlight++
      most = Math.max(most, inFlight)
      await new Promise((resolve) => setTimeout(resolve, ms))
      inFlight--
      return ms * 2
    })
    expect(result).toEqual([60, 10, 40, 2, 20, 4])
    expect(most).toBe(2)
  })

  it('answers an empty list without calling map, and rejects with the first error', async () => {
    expect(await mapConcurrently([], 4, async () => 1)).toEqual([])
    await expect(
      mapConcurrently([1, 2, 3], 2, async (n) => (n === 2 ? Promise.reject(new Error('two')) : n)),
    ).rejects.toThrow('two')
  })
})
