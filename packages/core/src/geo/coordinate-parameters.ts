import * as v from 'valibot'

/**
 * The `lat` parameter of a place operation: WGS84 latitude, -90 to 90. Out of range is a 400
 * that names the bound ("lat must be at most 90").
 *
 * @example
 * defineOperation({ name: 'find_ports_nearby', parameters: { lat: latitudeParameter(), lon: longitudeParameter() }, ... })
 */
export function latitudeParameter(description = 'WGS84 latitude in decimal degrees, -90 to 90, e.g. 59.9139') {
  return v.pipe(v.number(), v.minValue(-90), v.maxValue(90), v.description(description))
}

/**
 * The `lon` parameter of a place operation: WGS84 longitude, -180 to 180.
 *
 * @example
 * const parameters = { lat: latitudeParameter(), lon: longitudeParameter() }
 */
export function longitudeParameter(description = 'WGS84 longitude in decimal degrees, -180 to 180, e.g. 10.7522') {
  return v.pipe(v.number(), v.minValue(-180), v.maxValue(180), v.description(description))
}

/**
 * An optional `radius_km` parameter: greater than 0, at most `max`, `fallback` when left out.
 *
 * @example
 * const parameters = { lat: latitudeParameter(), lon: longitudeParameter(), radius_km: radiusKmParameter({ fallback: 10, max: 100 }) }
 */
export function radiusKmParameter(options: { fallback: number; max: number; description?: string }) {
  return v.optional(
    v.pipe(
      v.number(),
      v.gtValue(0, 'must be greater than 0'),
      v.maxValue(options.max),
      v.description(options.description ?? `Search radius in kilometres around lat/lon, at most ${options.max}`),
    ),
    options.fallback,
  )
}
