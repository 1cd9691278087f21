import { boundsOf, inPolygon, type PolygonRings, type Position } from './area-geometry.js'

/** A point inside an area and how it was found. */
export interface RepresentativePoint {
  lat: number
  lon: number
  /** `pole_of_inaccessibility`: the inside point farthest from every edge; `scanline`: the middle of the widest inside span of a line. */
  method: 'pole_of_inaccessibility' | 'scanline'
}

/** The most cells one search looks at: enough for a fine precision on a park's outline, bounded for a pathological one. */
const MAX_CELLS = 5_000

/**
 * The most corners of one polygon the pole search measures against: a national park's whole
 * outline has hundreds of thousands, and every cell measures every edge. The search runs on
 * every n-th corner and its answer is then checked against the whole outline.
 */
const MAX_SEARCH_CORNERS = 2_000

/** A polygon with at most about {@link MAX_SEARCH_CORNERS} corners, every n-th kept, rings closed. */
function thinned(polygon: PolygonRings): PolygonRings {
  const corners = polygon.reduce((sum, ring) => sum + ring.length, 0)
  const step = Math.ceil(corners / MAX_SEARCH_CORNERS)
  if (step <= 1) return polygon
  return polygon
    .map((ring) => {
      const kept = ring.filter((_, i) => i % step === 0)
      kept.push(kept[0]!)
      return kept
    })
    .filter((ring) => ring.length >= 4)
}

interface Cell {
  x: number
  y: number
  half: number
  /** Signed distance from the cell's centre to the nearest edge: positive inside. */
  d: number
  /** The most any point of the cell can be from an edge. */
  max: number
}

function segmentDistanceSquared(px: number, py: number, a: Position, b: Position): number {
  let x = a[0]
  let y = a[1]
  let dx = b[0] - x
  let dy = b[1] - y
  if (dx !== 0 || dy !== 0) {
    const t = ((px - x) * dx + (py - y) * dy) / (dx * dx + dy * dy)
    if (t > 1) {
      x = b[0]
      y = b[1]
    } else if (t > 0) {
      x += dx * t
      y += dy * t
    }
  }
  dx = px - x
  dy = py - y
  return dx * dx + dy * dy
}

function signedDistance(x: number, y: number, polygon: PolygonRings): number {
  let minSquared = Infinity
  for (const ring of polygon) {
    for (let i = 1; i < ring.length; i++)
      minSquared = Math.min(minSquared, segmentDistanceSquared(x, y, ring[i - 1]!, ring[i]!))
  }
  return (inPolygon([x, y], polygon) ? 1 : -1) * Math.sqrt(minSquared)
}

function cell(x: number, y: number, half: number, polygon: PolygonRings): Cell {
  const d = signedDistance(x, y, polygon)
  return { x, y, half, d, max: d + half * Math.SQRT2 }
}

/** A binary max-heap of cells by how far from an edge they could hold a point. */
class CellQueue {
  private readonly items: Cell[] = []
  get size(): number {
    return this.items.length
  }
  push(item: Cell): void {
    const items = this.items
    items.push(item)
    let i = items.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (items[parent]!.max >= item.max) break
      items[i] = items[parent]!
      i = parent
    }
    items[i] = item
  }
  pop(): Cell | undefined {
    const items = this.items
    const top = items[0]
    const last = items.pop()
    if (items.length > 0 && last) {
      let i = 0
      for (;;) {
        const left = 2 * i + 1
        const right = left + 1
        let larger = -1
        let best = last.max
        if (left < items.length && items[left]!.max > best) {
          larger = left
          best = items[left]!.max
        }
        if (right < items.length && items[right]!.max > best) larger = right
        if (larger === -1) break
        items[i] = items[larger]!
        i = larger
      }
      items[i] = last
    }
    return top
  }
}

/**
 * The pole of inaccessibility of one polygon in flat coordinates (the inside point farthest
 * from any edge, found by the quadtree search of Mapbox's polylabel, written here), with its
 * distance to the nearest edge.
 */
function poleOf(polygon: PolygonRings, precision: number): Cell | undefined {
  const outer = polygon[0]
  if (!outer || outer.length < 4) return undefined
  const [minX, minY, maxX, maxY] = boundsOf(outer)
  const width = maxX - minX
  const height = maxY - minY
  const size = Math.min(width, height)
  if (size === 0) return undefined
  const queue = new CellQueue()
  const half = size / 2
  for (let x = minX; x < minX + width; x += size) {
    for (let y = minY; y < minY + height; y += size) queue.push(cell(x + half, y + half, half, polygon))
  }
  let best = cell(minX + width / 2, minY + height / 2, 0, polygon)
  // The centroid of the outer ring is often the answer already for a compact shape.
  let area = 0
  let cx = 0
  let cy = 0
  for (let i = 0, j = outer.length - 1; i < outer.length; j = i++) {
    const f = outer[i]![0] * outer[j]![1] - outer[j]![0] * outer[i]![1]
    cx += (outer[i]![0] + outer[j]![0]) * f
    cy += (outer[i]![1] + outer[j]![1]) * f
    area += f * 3
  }
  if (area !== 0) {
    const centroid = cell(cx / area, cy / area, 0, polygon)
    if (centroid.d > best.d) best = centroid
  }
  let looked = 0
  while (queue.size > 0 && looked < MAX_CELLS) {
    const next = queue.pop()!
    looked++
    if (next.d > best.d) best = next
    if (next.max - best.d <= precision) continue
    const h = next.half / 2
    queue.push(cell(next.x - h, next.y - h, h, polygon))
    queue.push(cell(next.x + h, next.y - h, h, polygon))
    queue.push(cell(next.x - h, next.y + h, h, polygon))
    queue.push(cell(next.x + h, next.y + h, h, polygon))
  }
  return best
}

/**
 * The middle of the widest inside span of the horizontal line through the middle of a
 * polygon's height: inside for any polygon with an area, however thin, when the pole search
 * found nothing.
 */
function scanlinePoint(polygon: PolygonRings): Position | undefined {
  const outer = polygon[0]
  if (!outer) return undefined
  const [, south, , north] = boundsOf(outer)
  const y = (south + north) / 2
  const crossings: number[] = []
  for (const ring of polygon) {
    for (let i = 1; i < ring.length; i++) {
      const [x1, y1] = ring[i - 1]!
      const [x2, y2] = ring[i]!
      if (y1 > y !== y2 > y) crossings.push(x1 + ((y - y1) * (x2 - x1)) / (y2 - y1))
    }
  }
  crossings.sort((a, b) => a - b)
  let widest: Position | undefined
  let width = 0
  for (let i = 0; i + 1 < crossings.length; i += 2) {
    if (crossings[i + 1]! - crossings[i]! > width) {
      width = crossings[i + 1]! - crossings[i]!
      widest = [(crossings[i]! + crossings[i + 1]!) / 2, y]
    }
  }
  return widest
}

/**
 * A point that lies inside an area, for clients that can show only points: the pole of
 * inaccessibility of its polygon (of the polygon where that pole lies deepest, for several),
 * which is inside a C shape, beside a hole and on the largest island, where a centroid may
 * fall outside. Worked out in a flat projection around the area's latitude, so a degree of
 * longitude counts for what it is; to about a thousandth of the area's size. Undefined for an
 * area without polygons.
 *
 * @example
 * representativePoint([[[[10, 60], [10.3, 60], [10.3, 60.1], [10.1, 60.1], [10.1, 60.2], [10.3, 60.2], [10.3, 60.3], [10, 60.3], [10, 60]]]])
 * // { lon: ≈10.05, lat: ≈60.15, method: 'pole_of_inaccessibility' }: in the back of the C, not in its mouth
 */
export function representativePoint(polygons: PolygonRings[]): RepresentativePoint | undefined {
  const outers = polygons
    .map((polygon) => polygon[0])
    .filter((ring): ring is Position[] => ring !== undefined && ring.length > 0)
  if (outers.length === 0) return undefined
  const south = Math.min(...outers.map((ring) => boundsOf(ring)[1]))
  const north = Math.max(...outers.map((ring) => boundsOf(ring)[3]))
  const scale = Math.cos((((south + north) / 2) * Math.PI) / 180)
  const flat = polygons.map((polygon) => polygon.map((ring) => ring.map(([lon, lat]): Position => [lon * scale, lat])))
  const extent = Math.max(
    ...flat.map((polygon) => {
      const [minX, minY, maxX, maxY] = boundsOf(polygon[0] ?? [])
      return Math.max(maxX - minX, maxY - minY)
    }),
  )
  let best: Cell | undefined
  let bestPolygon: PolygonRings | undefined
  for (const polygon of flat) {
    const pole = poleOf(thinned(polygon), extent / 1000)
    if (pole && (!best || pole.d > best.d)) {
      best = pole
      bestPolygon = polygon
    }
  }
  // Found on a thinned outline, the pole is kept only when the whole outline has it inside too.
  if (best && best.d > 0 && bestPolygon && inPolygon([best.x, best.y], bestPolygon)) {
    return { lon: best.x / scale, lat: best.y, method: 'pole_of_inaccessibility' }
  }
  for (const polygon of flat) {
    const point = scanlinePoint(polygon)
    if (point) return { lon: point[0] / scale, lat: point[1], method: 'scanline' }
  }
  return undefined
}
