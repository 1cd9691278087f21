import { boundsOf, inPolygon, signedArea2, type PolygonRings, type Position } from './area-geometry.js'

/** Kilometres per degree of latitude (and of longitude at the equator), for the local flat projection. */
const KM_PER_DEGREE = 111.195

/**
 * A flat projection around one latitude, in kilometres: exact enough over the tens of
 * kilometres a protected area or a search radius spans in Norway.
 */
function projector(originLat: number): (p: Position) => Position {
  const xScale = KM_PER_DEGREE * Math.cos((originLat * Math.PI) / 180)
  return ([lon, lat]) => [lon * xScale, lat * KM_PER_DEGREE]
}

function segmentDistance(p: Position, a: Position, b: Position): number {
  const dx = b[0] - a[0]
  const dy = b[1] - a[1]
  const lengthSquared = dx * dx + dy * dy
  const t =
    lengthSquared === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / lengthSquared))
  return Math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy))
}

/**
 * Kilometres from a WGS84 point to the nearest edge of an area, 0 when the point lies inside
 * it (in a hole counts as outside). Infinity for an area without polygons.
 *
 * @example
 * distanceToAreaKm({ lat: 59.9, lon: 10.7 }, [[[[10.8, 59.8], [10.9, 59.8], [10.9, 59.95], [10.8, 59.95], [10.8, 59.8]]]]) // ≈ 5.6
 */
export function distanceToAreaKm(point: { lat: number; lon: number }, polygons: PolygonRings[]): number {
  const here: Position = [point.lon, point.lat]
  if (polygons.some((polygon) => inPolygon(here, polygon))) return 0
  const project = projector(point.lat)
  const p = project(here)
  let best = Infinity
  for (const polygon of polygons) {
    for (const ring of polygon) {
      for (let i = 1; i < ring.length; i++)
        best = Math.min(best, segmentDistance(p, project(ring[i - 1]!), project(ring[i]!)))
    }
  }
  return best
}

/**
 * The area of polygons in square kilometres (holes taken out), in a flat projection around
 * each polygon's middle latitude: within a fraction of a percent for areas of Norway's size.
 *
 * @example
 * areaKm2([[[[10, 60], [10.01, 60], [10.01, 60.01], [10, 60.01], [10, 60]]]]) // ≈ 0.62
 */
export function areaKm2(polygons: PolygonRings[]): number {
  let total = 0
  for (const polygon of polygons) {
    const outer = polygon[0]
    if (!outer) continue
    const [, south, , north] = boundsOf(outer)
    const project = projector((south + north) / 2)
    const [first, ...holes] = polygon.map((ring) => Math.abs(signedArea2(ring.map(project))) / 2)
    total += (first ?? 0) - holes.reduce((sum, hole) => sum + hole, 0)
  }
  return total
}
