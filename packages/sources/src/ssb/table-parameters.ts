import * as v from 'valibot'

/**
 * The `table_id` parameter: Statistikkbanken's table numbers are five digits (`07459`), kept
 * as text so the leading zero stays.
 *
 * @example
 * v.safeParse(tableIdSchema, '7459').success // false: must be 5 digits
 */
export const tableIdSchema = v.pipe(
  v.string(),
  v.trim(),
  v.regex(/^\d{5}$/, 'must be a 5-digit table number, e.g. 07459'),
  v.description('Table number in Statistikkbanken: 5 digits, e.g. 07459'),
)

/** The `lang` parameter: SSB labels its tables in Norwegian (`no`, the default) and English (`en`). */
export const langSchema = v.optional(
  v.pipe(v.picklist(['no', 'en'], 'must be no or en'), v.description('Language of labels: no (default) or en')),
  'no',
)
