import * as v from 'valibot'

/**
 * An optional `radius_km` parameter, as the public gateway's clients send it to the point
 * searches: greater than 0, at most `max`, `fallback` when left out (which is also what the
 * places bundle uses).
 *
 * @example
 * const parameters = { ...pointParameters(3), radius_km: radiusKmParameter({ fallback: 10, max: 200 }) }
 */
export function radiusKmParameter(options: { fallback: number; max: number }) {
  return v.optional(
    v.pipe(
      v.number(),
      v.gtValue(0, 'must be greater than 0'),
      v.maxValue(options.max),
      v.description(
        `Search radius in kilometres around lat/lon, at most ${options.max}; ${options.fallback} when left out`,
      ),
    ),
    options.fallback,
  )
}
