/** A WGS84 position in decimal degrees. */
export interface LatLon {
  lat: number
  lon: number
}

/** Mean earth radius (IUGG), in kilometres; the spherical model errs by at most about 0.5 %. */
const EARTH_RADIUS_KM = 6371.0088

const radians = (degrees: number) => (degrees * Math.PI) / 180

/**
 * Great-circle distance between two WGS84 positions in kilometres (haversine formula). The
 * one distance every place operation sorts and filters by, so that a "within 10 km" means
 * the same thing in every source.
 *
 * @example
 * distanceKm({ lat: 59.9139, lon: 10.7522 }, { lat: 60.3913, lon: 5.3221 }) // about 305
 */
export function distanceKm(from: LatLon, to: LatLon): number {
  const dLat = radians(to.lat - from.lat)
  const dLon = radians(to.lon - from.lon)
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(from.lat)) * Math.cos(radians(to.lat)) * Math.sin(dLon / 2) ** 2
  // min() keeps rounding from pushing asin's argument past 1 for antipodal points.
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)))
}

/**
 * Whether a pair of numbers is a usable WGS84 position: finite, in range, and not the (0, 0)
 * that several registers store for "unknown".
 *
 * @example
 * isKnownPosition({ lat: 0, lon: 0 }) // false
 */
export function isKnownPosition(position: { lat: number | null | undefined; lon: number | null | undefined }): position is LatLon {
  const { lat, lon } = position
  if (typeof lat !== 'number' || typeof lon !== 'number' || !Number.isFinite(lat) || !Number.isFinite(lon)) return false
  if (lat < -90 || lat > 90 || lon < -180 || lon > 180) return false
  return !(lat === 0 && lon === 0)
}

/**
 * The items within `radiusKm` of `center`, nearest first, each with its distance rounded to
 * metres. `position` reads an item's position (null when it has none; such items are left out).
 *
 * @example
 * const near = nearest(center, ports, 10, (port) => ({ lat: port.lat, lon: port.lon }))
 * near[0] // { item: {...}, distanceKm: 0.412 }
 */
export function nearest<T>(
  center: LatLon,
  items: Iterable<T>,
  radiusKm: number,
  position: (item: T) => LatLon | null,
): { item: T; distanceKm: number }[] {
  const found: { item: T; distanceKm: number }[] = []
  for (const item of items) {
    const at = position(item)
    if (!at) continue
    const distance = distanceKm(center, at)
    if (distance <= radiusKm) found.push({ item, distanceKm: Math.round(distance * 1000) / 1000 })
  }
  // sort() is stable, so items at the same distance keep the upstream's order.
  return found.sort((a, b) => a.distanceKm - b.distanceKm)
}
