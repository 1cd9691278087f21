import { describe, expect, it } from 'vitest'
import { isKnownPosition, nearest } from './nearest.js'

describe('isKnownPosition', () => {
  it('refuses missing, out-of-range and (0, 0) positions', () => {
    expect(isKnownPosition({ lat: 59.9, lon: 10.7 })).toBe(true)
    expect(isKnownPosition({ lat: 0, lon: 0 })).toBe(false)
    expect(isKnownPosition({ lat: null, lon: 10 })).toBe(false)
    expect(isKnownPosition({ lat: '59.9', lon: 10 })).toBe(false)
    expect(isKnownPosition({ lat: 91, lon: 181 })).toBe(false)
    expect(isKnownPosition({ lat: Number.NaN, lon: 10 })).toBe(false)
  })
})

describe('nearest', () => {
  it('keeps the items within the radius, nearest first, with distances in metres', () => {
    const center = { lat: 59.9, lon: 10.7 }
    const items = [
      { id: 'far', lat: 60.9, lon: 10.7 },
      { id: 'none', lat: null, lon: null },
      { id: 'b', lat: 59.91, lon: 10.7 },
      { id: 'a', lat: 59.9, lon: 10.701 },
    ]
    const found = nearest(center, items, 5, (i) => (isKnownPosition(i) ? i : null))
    expect(found.map((f) => f.item.id)).toEqual(['a', 'b'])
    expect(found[0]!.distanceKm).toBe(0.056)
    expect(found[1]!.distanceKm).toBe(1.112)
  })
})
