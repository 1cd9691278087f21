/** Cell height in degrees of latitude: about 1.1 km. */
const LAT_STEP = 0.01
/** Cell width in degrees of longitude: about 1.1 km at 60° N, wider to the south, narrower in the north. */
const LON_STEP = 0.02

/**
 * The grid cell a point lies in, as a text key: what datasets index positions by (mattilsynet's
 * placed addresses, utdanning's units), since a dataset lookup compares by equality and lists,
 * not by ranges; a nearby query asks for the {@link cellsAround} a circle.
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
