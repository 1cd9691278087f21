import * as v from 'valibot'

/** Mean Earth radius in kilometres, as the haversine formula uses it. */
const EARTH_RADIUS_KM = 6371.0088

/** Metres per degree of latitude, for describing a grid cell to clients. */
const METRES_PER_DEGREE = 111_320

/** A WGS84 position in decimal degrees. */
export interface Wgs84Point {
  lat: number
  lon: number
}

/**
 * Rounds a coordinate to `decimals` places, so that every point in one grid cell becomes the
 * same point (and the same cache key). `-0` becomes `0`, so it never shows up in a URL.
 *
 * @example
 * roundCoordinate(59.913868, 3) // 59.914
 */
export function roundCoordinate(value: number, decimals: number): number {
  const factor = 10 ** decimals
  const rounded = Math.round(value * factor) / factor
  return rounded === 0 ? 0 : rounded
}

/**
 * The `lat` and `lon` parameters of an operation for a point: WGS84 degrees, bounded to
 * −90..90 and −180..180 (the core's 400 names the parameter and the bound it broke), and
 * rounded to a grid cell of `decimals` places so that nearby requests share one cached
 * answer and one upstream call. The cell size is stated in each parameter's description.
 *
 * @example
 * defineOperation({ ...forecast, parameters: { ...pointParameters(3) } }) // lat and lon, rounded as they come in
 * // lat=59.913868 → 59.914 (a cell of about 111 m)
 */
export function pointParameters(decimals: number) {
  const cell = Math.round(METRES_PER_DEGREE / 10 ** decimals)
  const note = `rounded to ${decimals} decimals (a cell of about ${cell} m) so that nearby requests share one answer`
  return {
    lat: v.pipe(
      v.number(),
      v.minValue(-90),
      v.maxValue(90),
      v.transform((n: number) => roundCoordinate(n, decimals)),
      v.description(`WGS84 latitude in decimal degrees, −90..90; ${note}`),
    ),
    lon: v.pipe(
      v.number(),
      v.minValue(-180),
      v.maxValue(180),
      v.transform((n: number) => roundCoordinate(n, decimals)),
      v.description(`WGS84 longitude in decimal degrees, −180..180; ${note}`),
    ),
  }
}

/**
 * Great-circle distance between two WGS84 points in kilometres (haversine; within 0.5 % of
 * the ellipsoidal distance, which is plenty for "nearest first").
 *
 * @example
 * distanceKm({ lat: 59.9139, lon: 10.7522 }, { lat: 60.3913, lon: 5.3221 }) // ≈ 305
 */
export function distanceKm(a: Wgs84Point, b: Wgs84Point): number {
  const rad = Math.PI / 180
  const dLat = (b.lat - a.lat) * rad
  const dLon = (b.lon - a.lon) * rad
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)))
}
