import * as v from 'valibot'

/**
 * A schema with its description, for the rows Entur's answers become.
 *
 * @example
 * described(v.number(), 'WGS84 latitude')
 */
export const described = <S extends v.GenericSchema>(schema: S, description: string) =>
  v.pipe(schema, v.description(description))

/**
 * A text Entur may leave out, described.
 *
 * @example
 * maybeText('Name of the operator, when Entur knows it')
 */
export const maybeText = (description: string) => described(v.nullable(v.string()), description)

/**
 * A text as Entur sends it, or null when it is absent or blank: Entur fills absent names with
 * null and absent references with "".
 *
 * @example
 * present('  ') // null
 */
export const present = (value: string | null | undefined): string | null =>
  value && value.trim() !== '' ? value.trim() : null
