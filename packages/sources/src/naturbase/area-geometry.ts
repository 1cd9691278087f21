/** A WGS84 position as GeoJSON writes it: longitude first. */
export type Position = [number, number]
/** A closed ring of positions (first equals last). */
export type Ring = Position[]
/** One polygon: its outer ring, then its holes. */
export type PolygonRings = Ring[]

/** A GeoJSON Polygon or MultiPolygon (RFC 7946: WGS84, lon/lat, outer rings counter-clockwise). */
export type AreaGeometry =
  | { type: 'Polygon'; coordinates: PolygonRings }
  | { type: 'MultiPolygon'; coordinates: PolygonRings[] }

/**
 * The box of positions as `[minX, minY, maxX, maxY]`, in a loop: an outline of a few hundred
 * thousand corners can be too long for `Math.min(...xs)`, which passes each as an argument.
 *
 * @example
 * boundsOf([[10, 60], [11, 61]]) // [10, 60, 11, 61]
 */
export function boundsOf(points: readonly Position[]): [number, number, number, number] {
  let minX = Infinity
  let minY = Infinity
  let maxX = -Infinity
  let maxY = -Infinity
  for (const [x, y] of points) {
    if (x < minX) minX = x
    if (x > maxX) maxX = x
    if (y < minY) minY = y
    if (y > maxY) maxY = y
  }
  return [minX, minY, maxX, maxY]
}

/**
 * Twice the signed area of a ring in its own units: positive when it runs counter-clockwise
 * (x east, y north).
 *
 * @example
 * signedArea2([[0, 0], [1, 0], [1, 1], [0, 0]]) // 1
 */
export function signedArea2(ring: Ring): number {
  let sum = 0
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    sum += (ring[j]![0] - ring[i]![0]) * (ring[j]![1] + ring[i]![1])
  }
  return sum
}

/**
 * Whether a point lies inside a ring (even-odd ray casting; a point on the edge may go either way).
 *
 * @example
 * inRing([0.5, 0.5], [[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]) // true
 */
export function inRing(point: Position, ring: Ring): boolean {
  const [x, y] = point
  let inside = false
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!
    const [xj, yj] = ring[j]!
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside
  }
  return inside
}

/**
 * Whether a point lies inside a polygon: within its outer ring and in none of its holes.
 *
 * @example
 * inPolygon([0.5, 0.5], [[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]]) // true
 */
export function inPolygon(point: Position, polygon: PolygonRings): boolean {
  const [outer, ...holes] = polygon
  return outer !== undefined && inRing(point, outer) && !holes.some((hole) => inRing(point, hole))
}

/** A ring as positions of two finite numbers, closed, or undefined when fewer than three distinct corners remain. */
function cleanRing(raw: readonly (readonly number[])[]): Ring | undefined {
  const ring: Ring = []
  for (const p of raw) {
    const x = p[0]
    const y = p[1]
    // Rings may carry z (and m) after x and y; only the position is kept.
    if (typeof x !== 'number' || typeof y !== 'number' || !Number.isFinite(x) || !Number.isFinite(y)) continue
    const last = ring[ring.length - 1]
    if (last && last[0] === x && last[1] === y) continue
    ring.push([x, y])
  }
  if (ring.length > 1 && ring[0]![0] === ring[ring.length - 1]![0] && ring[0]![1] === ring[ring.length - 1]![1])
    ring.pop()
  if (ring.length < 3) return undefined
  ring.push([ring[0]![0], ring[0]![1]])
  return ring
}

/**
 * Groups an Esri polygon's rings into polygons with their holes. Esri writes every ring of a
 * polygon in one flat list (outer rings clockwise, holes counter-clockwise, islands in a lake
 * of a park again clockwise); the grouping here is by nesting, so a ring inside an odd number
 * of others is a hole of the smallest one holding it, whichever way the data runs. The rings
 * come out as RFC 7946 wants them: outer counter-clockwise, holes clockwise.
 *
 * @example
 * esriRingsToPolygons([[[0, 0], [0, 4], [4, 4], [4, 0], [0, 0]], [[1, 1], [2, 1], [2, 2], [1, 2], [1, 1]]])
 * // [[outer ring, hole]]: one polygon with one hole
 */
export function esriRingsToPolygons(rings: readonly (readonly (readonly number[])[])[]): PolygonRings[] {
  const cleaned = rings.map(cleanRing).filter((r): r is Ring => r !== undefined && signedArea2(r) !== 0)
  const sizes = cleaned.map((r) => Math.abs(signedArea2(r)))
  const boxes = cleaned.map(boundsOf)
  const inBox = (p: Position, j: number) =>
    p[0] >= boxes[j]![0] && p[0] <= boxes[j]![2] && p[1] >= boxes[j]![1] && p[1] <= boxes[j]![3]
  // Which rings hold each ring: tested at a corner, and only by larger rings whose box has the corner.
  const holders = cleaned.map((ring, i) =>
    cleaned
      .map((_, j) => j)
      .filter((j) => j !== i && sizes[j]! > sizes[i]! && inBox(ring[0]!, j) && inRing(ring[0]!, cleaned[j]!)),
  )
  const polygons = new Map<number, PolygonRings>()
  const orient = (ring: Ring, counterClockwise: boolean): Ring =>
    signedArea2(ring) > 0 === counterClockwise ? ring : [...ring].reverse()
  cleaned.forEach((ring, i) => {
    if (holders[i]!.length % 2 === 0) polygons.set(i, [orient(ring, true)])
  })
  cleaned.forEach((ring, i) => {
    if (holders[i]!.length % 2 === 0) return
    // The smallest ring holding it is the outer ring it is a hole of.
    const owner = holders[i]!.reduce((best, j) => (sizes[j]! < sizes[best]! ? j : best))
    polygons.get(owner)?.push(orient(ring, false))
  })
  return [...polygons.values()]
}

/**
 * The GeoJSON geometry of polygons: a Polygon for one, a MultiPolygon for more, null for none.
 *
 * @example
 * toGeoJson([[[[0, 0], [1, 0], [1, 1], [0, 0]]]]) // { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] }
 */
export function toGeoJson(polygons: PolygonRings[]): AreaGeometry | null {
  if (polygons.length === 0) return null
  return polygons.length === 1
    ? { type: 'Polygon', coordinates: polygons[0]! }
    : { type: 'MultiPolygon', coordinates: polygons }
}
