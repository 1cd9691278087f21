import type { Wgs84Point } from '../shared/wgs84-point.js'

/** Kilometres per degree of latitude (and of longitude at the equator). */
const KM_PER_DEGREE = 111.32

/** A box in WGS84 degrees, as Entur's vehicle positions take it (`BoundingBox` input). */
export interface BoundingBox {
  minLat: number
  minLon: number
  maxLat: number
  maxLon: number
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6

/**
 * The smallest box holding the circle of `radiusKm` around `center`: Entur's vehicle positions
 * search a box only, so the circle is cut out of its answer afterwards. Near the poles the
 * longitude span is capped at the whole circle of longitudes rather than dividing by ~0.
 *
 * @example
 * boundingBoxAround({ lat: 59.91, lon: 10.75 }, 1)
 * // { minLat: 59.901017, minLon: 10.732083, maxLat: 59.918983, maxLon: 10.767917 }
 */
export function boundingBoxAround(center: Wgs84Point, radiusKm: number): BoundingBox {
  const dLat = radiusKm / KM_PER_DEGREE
  const cos = Math.cos((center.lat * Math.PI) / 180)
  const dLon = cos > 1e-6 ? Math.min(180, radiusKm / (KM_PER_DEGREE * cos)) : 180
  return {
    minLat: round6(Math.max(-90, center.lat - dLat)),
    minLon: round6(Math.max(-180, center.lon - dLon)),
    maxLat: round6(Math.min(90, center.lat + dLat)),
    maxLon: round6(Math.min(180, center.lon + dLon)),
  }
}
