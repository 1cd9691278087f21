import * as v from 'valibot'

/**
 * The `query` parameter of `lookup_airport` and `lookup_airline`. Two characters is the
 * shortest IATA code (airlines); a single letter would match most of either list.
 *
 * @example
 * parameters: { query: lookupQuery('"tromso" finds Tromsø') }
 */
export const lookupQuery = (example: string) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.minLength(2, 'must be at least 2 characters'),
    v.maxLength(100, 'must be at most 100 characters'),
    v.description(
      `IATA code or (part of) the name, 2–100 characters, any case; Norwegian letters may be typed plainly (${example})`,
    ),
  )
