import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { distanceKm, pointParameters, roundCoordinate } from './wgs84-point.js'

describe('pointParameters', () => {
  it('rounds to the cell and keeps the bounds', () => {
    const { lat, lon } = pointParameters(3)
    expect(v.parse(lat, 59.913868)).toBe(59.914)
    expect(v.parse(lon, -0.0001)).toBe(0)
    expect(Object.is(v.parse(lon, -0.0001), -0)).toBe(false)
    expect(v.safeParse(lat, 90.0001).success).toBe(false)
    expect(v.safeParse(lon, -180.5).success).toBe(false)
    expect(v.parse(lon, 180)).toBe(180)
  })

  it('says how large the cell is', () => {
    const { lat } = pointParameters(4)
    expect(lat.pipe.find((item) => item.type === 'description')).toMatchObject({
      description: expect.stringContaining('about 11 m'),
    })
  })
})

describe('roundCoordinate and distanceKm', () => {
  it('rounds half away from the cell edge and measures great-circle distance', () => {
    expect(roundCoordinate(10.75225, 4)).toBe(10.7523)
    expect(distanceKm({ lat: 59.9139, lon: 10.7522 }, { lat: 59.9139, lon: 10.7522 })).toBe(0)
    // Oslo to Bergen, about 305 km as the crow flies.
    expect(distanceKm({ lat: 59.9139, lon: 10.7522 }, { lat: 60.3913, lon: 5.3221 })).toBeCloseTo(305, -1)
    // One degree of latitude is about 111.2 km.
    expect(distanceKm({ lat: 0, lon: 0 }, { lat: 1, lon: 0 })).toBeCloseTo(111.2, 1)
  })
})
