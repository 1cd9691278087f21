/** Cell height in degrees of latitude: about 1.1 km. */
const LAT_STEP = 0.01
/** Cell width in degrees of longitude: about 1.1 km at 60° N, wider to the south, narrower in the north. */
const LON_STEP = 0.02

/**
 * The grid cell a point lies in, as a text key: what placed addresses are indexed by, since a
 * dataset lookup compares by equality and lists, not by ranges.
 *
 * @example
 * gridCell(59.9139, 10.7522) // '5991:537'
 */
export function gridCell(lat: number, lon: number): string {
  return `${Math.floor(lat / LAT_STEP)}:${Math.floor(lon / LON_STEP)}`
}

/**
 * Every cell a circle of `radiusKm` around a point touches (its bounding box's cells).
 *
 * @example
 * cellsAround(59.91, 10.75, 1).length // 12
 */
export function cellsAround(lat: number, lon: number, radiusKm: number): string[] {
  const dLat = radiusKm / 111.32
  const dLon = radiusKm / (111.32 * Math.max(Math.cos((lat * Math.PI) / 180), 0.01))
  const cells: string[] = []
  for (let y = Math.floor((lat - dLat) / LAT_STEP); y <= Math.floor((lat + dLat) / LAT_STEP); y++) {
    for (let x = Math.floor((lon - dLon) / LON_STEP); x <= Math.floor((lon + dLon) / LON_STEP); x++)
      cells.push(`${y}:${x}`)
  }
  return cells
}

/**
 * Great-circle distance in kilometres.
 *
 * @example
 * distanceKm(59.91, 10.75, 59.92, 10.75) // ≈ 1.11
 */
export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180
  const h =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h))
}
