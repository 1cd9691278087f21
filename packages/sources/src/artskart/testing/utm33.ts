import type { Wgs84Point } from '../../shared/wgs84-point.js'

// GRS80, the ellipsoid of EUREF89 (EPSG:25833), and UTM's scale and zone 33's meridian.
const FLATTENING = 1 / 298.257222101
const SEMI_MAJOR_M = 6_378_137
const SCALE = 0.9996
const CENTRAL_MERIDIAN = (15 * Math.PI) / 180

/**
 * A point in UTM zone 33 (EUREF89, EPSG:25833), as Artskart writes `FootprintWKT`, in WGS84
 * degrees (Krüger's series to the third order: well under a metre in Norway). Only the fake
 * needs it: it finds rows by their footprint, as Artskart does, not by the text coordinates.
 *
 * @example
 * utm33ToWgs84(261405, 6649911) // { lat: 59.9174, lon: 10.7311 } (about)
 */
export function utm33ToWgs84(easting: number, northing: number): Wgs84Point {
  const n = FLATTENING / (2 - FLATTENING)
  const rectifying = (SEMI_MAJOR_M / (1 + n)) * (1 + n ** 2 / 4 + n ** 4 / 64)
  const beta = [n / 2 - (2 * n ** 2) / 3 + (37 * n ** 3) / 96, n ** 2 / 48 + n ** 3 / 15, (17 * n ** 3) / 480]
  const delta = [2 * n - (2 * n ** 2) / 3 - 2 * n ** 3, (7 * n ** 2) / 3 - (8 * n ** 3) / 5, (56 * n ** 3) / 15]
  const xi = northing / (SCALE * rectifying)
  const eta = (easting - 500_000) / (SCALE * rectifying)
  let xiP = xi
  let etaP = eta
  beta.forEach((b, j) => {
    const k = 2 * (j + 1)
    xiP -= b * Math.sin(k * xi) * Math.cosh(k * eta)
    etaP -= b * Math.cos(k * xi) * Math.sinh(k * eta)
  })
  const chi = Math.asin(Math.sin(xiP) / Math.cosh(etaP))
  const phi = delta.reduce((sum, d, j) => sum + d * Math.sin(2 * (j + 1) * chi), chi)
  const lambda = CENTRAL_MERIDIAN + Math.atan(Math.sinh(etaP) / Math.cos(xiP))
  return { lat: (phi * 180) / Math.PI, lon: (lambda * 180) / Math.PI }
}
