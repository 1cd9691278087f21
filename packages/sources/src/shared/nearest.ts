import { distanceKm, type Wgs84Point } from './wgs84-point.js'

/**
 * Whether a pair of values is a usable WGS84 position: finite numbers, in range, and not the
 * (0, 0) that several registers (Kystverket's locations, the aquaculture map) store for "unknown".
 *
 * @example
 * isKnownPosition({ lat: 0, lon: 0 }) // false
 */
export function isKnownPosition(position: { lat: unknown; lon: unknown }): position is Wgs84Point {
  const { lat, lon } = position
  if (typeof lat !== 'number' || typeof lon !== 'number' || !Number.isFinite(lat) || !Number.isFinite(lon)) return false
  if (lat < -90 || lat > 90 || lon < -180 || lon > 180) return false
  return !(lat === 0 && lon === 0)
}

/**
 * The items within `radiusKm` of `center`, nearest first, each with its distance rounded to
 * metres: how the place sources that fetch a whole list once (ports, aquaculture sites,
 * vessels) filter it per question. `position` reads an item's position, or null when it has none.
 *
 * @example
 * const near = nearest<{ lat: number; lon: number }>({ lat: 59.907, lon: 10.747 }, ports, 10, (port) => port)
 * near[0] // { item: {...}, distanceKm: 0.019 }
 */
export function nearest<T>(
  center: Wgs84Point,
  items: Iterable<T>,
  radiusKm: number,
  position: (item: T) => Wgs84Point | null,
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
