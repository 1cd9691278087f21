import type { LatLonBox } from '../shared/kommuneinfo.js'
import type { Wgs84Point } from '../shared/wgs84-point.js'

/** Half the circumference of the Web Mercator world, in metres (EPSG:3857). */
const HALF_WORLD_M = 20_037_508.34

/** Kilometres per degree of latitude. */
const KM_PER_DEGREE = 111.32

/**
 * A WGS84 point in Web Mercator metres (EPSG:3857, "Google Mercator"), the projection
 * Artskart's `gmWktPolygon` filter is written in.
 *
 * @example
 * webMercator({ lat: 59.91, lon: 10.75 }) // [1196684.5, 8379727.6] (about)
 */
export function webMercator(point: Wgs84Point): [number, number] {
  const x = (point.lon * HALF_WORLD_M) / 180
  const y = (Math.log(Math.tan(((90 + point.lat) * Math.PI) / 360)) / (Math.PI / 180)) * (HALF_WORLD_M / 180)
  return [x, y]
}

/**
 * The box as the WKT polygon Artskart's `gmWktPolygon` takes: Web Mercator metres to a
 * decimetre, corners anticlockwise from the south-west, closed.
 *
 * @example
 * mercatorPolygon({ south: 59.9, west: 10.7, north: 59.95, east: 10.8 }) // 'POLYGON((1191110.1 8376184.3,…))'
 */
export function mercatorPolygon(box: LatLonBox): string {
  const corners: Wgs84Point[] = [
    { lat: box.south, lon: box.west },
    { lat: box.south, lon: box.east },
    { lat: box.north, lon: box.east },
    { lat: box.north, lon: box.west },
    { lat: box.south, lon: box.west },
  ]
  const text = corners
    .map((p) =>
      webMercator(p)
        .map((m) => m.toFixed(1))
        .join(' '),
    )
    .join(',')
  return `POLYGON((${text}))`
}

/**
 * The box that holds a circle of `radiusKm` around a point, so that Artskart is asked for
 * that box and the corners are filtered out here by distance.
 *
 * @example
 * boxAround({ lat: 59.91, lon: 10.75 }, 1) // { south: 59.901, west: 10.732, north: 59.919, east: 10.768 } (about)
 */
export function boxAround(point: Wgs84Point, radiusKm: number): LatLonBox {
  const dLat = radiusKm / KM_PER_DEGREE
  const dLon = radiusKm / (KM_PER_DEGREE * Math.max(Math.cos((point.lat * Math.PI) / 180), 0.01))
  return {
    south: Math.max(point.lat - dLat, -85),
    north: Math.min(point.lat + dLat, 85),
    west: Math.max(point.lon - dLon, -180),
    east: Math.min(point.lon + dLon, 180),
  }
}

/**
 * Whether a point lies in the box, widened by `marginDegrees` on every side (Artskart places
 * an observation by its footprint, so a centroid may lie just outside the box it was found in).
 *
 * @example
 * inBox({ south: 59, west: 10, north: 60, east: 11 }, { lat: 59.5, lon: 10.5 }) // true
 */
export function inBox(box: LatLonBox, point: Wgs84Point, marginDegrees = 0): boolean {
  return (
    point.lat >= box.south - marginDegrees &&
    point.lat <= box.north + marginDegrees &&
    point.lon >= box.west - marginDegrees &&
    point.lon <= box.east + marginDegrees
  )
}
