import type { Wgs84Point } from '../shared/wgs84-point.js'

/** Kilometres per degree of latitude (and of longitude at the equator). */
const KM_PER_DEGREE = 111.32

const floor3 = (value: number) => Math.floor(value * 1000) / 1000
const ceil3 = (value: number) => Math.ceil(value * 1000) / 1000

/**
 * The box around a circle, as FIRMS takes an area (`west,south,east,north`), rounded outward
 * to three decimals and clamped to the globe. A box that would cross the antimeridian is
 * clamped at ±180 rather than wrapped, since FIRMS takes one box per call.
 *
 * @example
 * boundingBox({ lat: 60, lon: 10 }, 10) // '9.82,59.91,10.18,60.09' (about)
 */
export function boundingBox(center: Wgs84Point, radiusKm: number): string {
  const dLat = radiusKm / KM_PER_DEGREE
  const cos = Math.cos((center.lat * Math.PI) / 180)
  const dLon = radiusKm / (KM_PER_DEGREE * Math.max(cos, 1e-9))
  // A circle around a pole, or wider than the globe, spans every longitude.
  const everyLongitude = Math.abs(center.lat) + dLat >= 90 || dLon >= 180
  const west = everyLongitude ? -180 : Math.max(-180, floor3(center.lon - dLon))
  const east = everyLongitude ? 180 : Math.min(180, ceil3(center.lon + dLon))
  const south = Math.max(-90, floor3(center.lat - dLat))
  const north = Math.min(90, ceil3(center.lat + dLat))
  return [west, south, east, north].join(',')
}
