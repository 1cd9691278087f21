import * as v from 'valibot'

/** A person's name as a parameter: 2..100 characters once trimmed (spec 8). */
export const personNameSchema = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(2, 'must be at least 2 characters'),
  v.maxLength(100, 'must be at most 100 characters'),
  v.check((value) => /\p{L}/u.test(value), 'must contain a letter'),
)

/** A birth year: exactly four digits (spec 4.4). */
export const birthYearSchema = v.pipe(
  v.string(),
  v.length(4, 'must be exactly 4 characters'),
  v.regex(/^\d*$/, 'must be a year written as 4 digits (YYYY)'),
  v.description('Birth year, YYYY'),
)
