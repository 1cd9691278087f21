import { describe, expect, it } from 'vitest'
import { distanceKm, isKnownPosition, nearest } from './distance.js'

describe('distanceKm', () => {
  it('measures great-circle distances in kilometres', () => {
    // Oslo to Bergen, about 305 km as the crow flies.
    expect(distanceKm({ lat: 59.9139, lon: 10.7522 }, { lat: 60.3913, lon: 5.3221 })).toBeCloseTo(305, -1)
    // One degree of latitude is about 111.2 km anywhere.
    expect(distanceKm({ lat: 69, lon: 18 }, { lat: 70, lon: 18 })).toBeCloseTo(111.2, 0)
    // One degree of longitude shrinks with cos(latitude): about 55.6 km at 60° N.
    expect(distanceKm({ lat: 60, lon: 10 }, { lat: 60, lon: 11 })).toBeCloseTo(55.6, 0)
  })

  it('is zero for the same point, symmetric, and finite for antipodes', () => {
    const a = { lat: 59.9, lon: 10.7 }
    const b = { lat: 63.4, lon: 10.4 }
    expect(distanceKm(a, a)).toBe(0)
    expect(distanceKm(a, b)).toBe(distanceKm(b, a))
    expect(distanceKm({ lat: 0, lon: 0 }, { lat: 0, lon: 180 })).toBeCloseTo(Math.PI * 6371.0088, 3)
  })
})

describe('isKnownPosition', () => {
  it('refuses missing, out-of-range and (0, 0) positions', () => {
    expect(isKnownPosition({ lat: 59.9, lon: 10.7 })).toBe(true)
    expect(isKnownPosition({ lat: 0, lon: 0 })).toBe(false)
    expect(isKnownPosition({ lat: null, lon: 10 })).toBe(false)
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
    const found = nearest(center, items, 5, (i) => (isKnownPosition(i) ? { lat: i.lat, lon: i.lon } : null))
    expect(found.map((f) => f.item.id)).toEqual(['a', 'b'])
    expect(found[0]!.distanceKm).toBe(0.056)
    expect(found[1]!.distanceKm).toBe(1.112)
  })
})
