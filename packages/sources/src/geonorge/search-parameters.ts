import * as v from 'valibot'

/**
 * A four-digit code parameter: a municipality number or a postal code.
 *
 * @example
 * kommunenummer: v.optional(fourDigits('Only hits in this municipality'))
 */
export function fourDigits(description: string) {
  return v.pipe(v.string(), v.trim(), v.regex(/^\d{4}$/, 'must be four digits, e.g. 0301'), v.description(description))
}

/** The `radius` of a point search, in metres; Kartverket's place-name API searches at most 5000 m. */
export function radiusMetres(fallback: number, what: string) {
  return v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.maxValue(5000),
      v.description(
        `Search radius around the point in metres, 1..5000; ${fallback} when left out. Only ${what} within it are found.`,
      ),
    ),
    fallback,
  )
}
