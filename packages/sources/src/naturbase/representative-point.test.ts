import { describe, expect, it } from 'vitest'
import { esriRingsToPolygons, inPolygon, signedArea2, toGeoJson, type PolygonRings } from './area-geometry.js'
import { areaKm2, distanceToAreaKm } from './polygon-measures.js'
import { representativePoint } from './representative-point.js'

// Esri's order: outer rings clockwise, holes counter-clockwise, every ring in one flat list.
const cShape = [
  [
    [10, 60],
    [10, 60.3],
    [10.3, 60.3],
    [10.3, 60.2],
    [10.1, 60.2],
    [10.1, 60.1],
    [10.3, 60.1],
    [10.3, 60],
    [10, 60],
  ],
]
const squareWithHole = [
  [
    [10, 60],
    [10, 60.2],
    [10.4, 60.2],
    [10.4, 60],
    [10, 60],
  ],
  [
    [10.05, 60.02],
    [10.35, 60.02],
    [10.35, 60.18],
    [10.05, 60.18],
    [10.05, 60.02],
  ],
]
// A small islet and a large island: the point belongs on the large one.
const twoIslands = [
  [
    [5, 61],
    [5, 61.01],
    [5.01, 61.01],
    [5.01, 61],
    [5, 61],
  ],
  [
    [6, 61],
    [6, 61.2],
    [6.4, 61.2],
    [6.4, 61],
    [6, 61],
  ],
]

const pointOf = (rings: number[][][]) => {
  const polygons = esriRingsToPolygons(rings)
  const point = representativePoint(polygons)!
  return { polygons, point, inside: polygons.some((p) => inPolygon([point.lon, point.lat], p)) }
}

/** The centroid of the corners, what a naive client computes. */
const cornerCentroid = (polygons: PolygonRings[]) => {
  const corners = polygons.flatMap((p) => p[0]!.slice(1))
  return [
    corners.reduce((s, c) => s + c[0], 0) / corners.length,
    corners.reduce((s, c) => s + c[1], 0) / corners.length,
  ] as [number, number]
}

describe('the representative point of a protected area', () => {
  it('lies inside a C shape, where the centroid of its corners falls in the mouth', () => {
    const { polygons, point, inside } = pointOf(cShape)
    expect(inside).toBe(true)
    expect(point.method).toBe('pole_of_inaccessibility')
    // The mouth of the C: open water between the arms, where the corners' centroid falls.
    const inMouth = point.lon > 10.1 && point.lat > 60.1 && point.lat < 60.2
    expect(inMouth).toBe(false)
    expect(inPolygon(cornerCentroid(polygons), polygons[0]!)).toBe(false)
  })

  it('lies inside a polygon with a hole, in the ring around it, not in the hole', () => {
    const { polygons, inside } = pointOf(squareWithHole)
    expect(polygons).toHaveLength(1)
    expect(polygons[0]).toHaveLength(2)
    expect(inside).toBe(true)
    expect(inPolygon(cornerCentroid(polygons), polygons[0]!)).toBe(false)
  })

  it('lies on the largest island of a multipolygon', () => {
    const { polygons, point, inside } = pointOf(twoIslands)
    expect(polygons).toHaveLength(2)
    expect(inside).toBe(true)
    expect(point.lon).toBeGreaterThan(6)
    expect(point.lon).toBeLessThan(6.4)
    // Squares of 0.4° by 0.2°: the deepest point is on the middle line of the big island.
    expect(point.lat).toBeCloseTo(61.1, 2)
  })

  it('lies inside a thin sliver, and within a ring that is an island in a hole', () => {
    const sliver = pointOf([
      [
        [10, 60],
        [10, 60.0001],
        [10.5, 60.0001],
        [10.5, 60],
        [10, 60],
      ],
    ])
    expect(sliver.inside).toBe(true)
    const island = pointOf([
      ...squareWithHole,
      [
        [10.15, 60.08],
        [10.15, 60.12],
        [10.25, 60.12],
        [10.25, 60.08],
        [10.15, 60.08],
      ],
    ])
    expect(island.polygons).toHaveLength(2)
    expect(island.inside).toBe(true)
  })

  it('is undefined for an area without polygons', () => {
    expect(representativePoint([])).toBeUndefined()
    expect(
      esriRingsToPolygons([
        [
          [10, 60],
          [10, 60],
        ],
      ]),
    ).toEqual([])
  })
})

describe('Esri rings as GeoJSON', () => {
  it('groups holes with their outer ring and turns the rings the way RFC 7946 wants', () => {
    const geometry = toGeoJson(esriRingsToPolygons(squareWithHole))!
    expect(geometry.type).toBe('Polygon')
    const [outer, hole] = geometry.coordinates as PolygonRings
    expect(signedArea2(outer!)).toBeGreaterThan(0)
    expect(signedArea2(hole!)).toBeLessThan(0)
    expect(outer![0]).toEqual(outer![outer!.length - 1])
  })

  it('makes a MultiPolygon of several outer rings, and drops z values', () => {
    const geometry = toGeoJson(esriRingsToPolygons(twoIslands.map((ring) => ring.map(([x, y]) => [x!, y!, 120]))))!
    expect(geometry.type).toBe('MultiPolygon')
    expect((geometry.coordinates as PolygonRings[])[0]![0]![0]).toHaveLength(2)
  })
})

describe('distance and area', () => {
  const polygons = esriRingsToPolygons(squareWithHole)
  it('is 0 inside, more than 0 in the hole and outside', () => {
    expect(distanceToAreaKm({ lat: 60.01, lon: 10.2 }, polygons)).toBe(0)
    expect(distanceToAreaKm({ lat: 60.1, lon: 10.2 }, polygons)).toBeCloseTo(8.34, 1)
    expect(distanceToAreaKm({ lat: 60.1, lon: 10.5 }, polygons)).toBeCloseTo(5.55, 1)
  })
  it('takes holes out of the area', () => {
    const full = areaKm2(esriRingsToPolygons([squareWithHole[0]!]))
    expect(full).toBeCloseTo(0.4 * 55.6 * 0.2 * 111.2, -1)
    expect(areaKm2(polygons)).toBeLessThan(full)
  })
})

describe('a large outline', () => {
  it('is placed inside an outline of 300 000 corners with a deep bite out of it, measured on every n-th corner', () => {
    // A ring of 300 000 corners around 61° N, 8° E, too many for Math.min(...xs) on a small stack, with a bite from the east past its middle.
    const ring: number[][] = []
    const n = 300_000
    for (let i = 0; i < n; i++) {
      const a = -(2 * Math.PI * i) / n // clockwise, as Esri writes an outer ring
      const bite = Math.abs(a + 2 * Math.PI) < 0.3 || Math.abs(a) < 0.3 ? 0.15 : 1
      ring.push([8 + 0.5 * bite * Math.cos(a), 61 + 0.25 * bite * Math.sin(a)])
    }
    ring.push(ring[0]!)
    const polygons = esriRingsToPolygons([ring])
    const point = representativePoint(polygons)!
    expect(point.method).toBe('pole_of_inaccessibility')
    expect(inPolygon([point.lon, point.lat], polygons[0]!)).toBe(true)
    // Not in the bite: west of the middle, where the outline is widest.
    expect(point.lon).toBeLessThan(8)
    expect(areaKm2(polygons)).toBeGreaterThan(0)
    expect(distanceToAreaKm({ lat: 61, lon: 8.4 }, polygons)).toBeGreaterThan(0)
  }, 30_000)
})
