import * as v from 'valibot'

const WEIGHTS = [3, 2, 7, 6, 5, 4, 3, 2] as const

/**
 * The MOD11 check digit of an organisation number's first eight digits, or `undefined` when
 * no valid number can start with them (remainder 1 would need the digit "10").
 *
 * @example
 * organisationNumberCheckDigit('97603078') // 8, so 976030788 is valid
 */
export function organisationNumberCheckDigit(firstEight: string): number | undefined {
  if (!/^\d{8}$/.test(firstEight)) return undefined
  let sum = 0
  for (let i = 0; i < 8; i++) sum += Number(firstEight[i]) * (WEIGHTS[i] ?? 0)
  const remainder = sum % 11
  if (remainder === 1) return undefined
  return remainder === 0 ? 0 : 11 - remainder
}

/**
 * Whether a string is a well-formed Norwegian organisation number: nine digits whose last
 * digit is the MOD11 check digit of the first eight (weights 3,2,7,6,5,4,3,2).
 *
 * @example
 * isValidOrganisationNumber('976030788') // true
 * isValidOrganisationNumber('976030789') // false
 */
export function isValidOrganisationNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false
  return organisationNumberCheckDigit(value.slice(0, 8)) === Number(value[8])
}

/**
 * The `org_nr` parameter. Each rule has its own message so a 400 says which one failed, and
 * the rules do not overlap, so one mistake is not reported twice: the digit rule only looks at
 * the characters (length is the length rule's), and the check-digit rule passes input that is
 * not nine digits.
 *
 * @example
 * v.safeParse(orgNrSchema, '976030788').success // true
 * v.safeParse(orgNrSchema, '976030789').issues?.[0]?.message // 'fails the organisation-number check digit (MOD11)'
 */
export const orgNrSchema = v.pipe(
  v.string(),
  v.length(9, 'must be exactly 9 characters'),
  v.regex(/^\d*$/, 'must be 9 digits'),
  v.check(
    (value) => !/^\d{9}$/.test(value) || isValidOrganisationNumber(value),
    'fails the organisation-number check digit (MOD11)',
  ),
  v.description('Norwegian organisation number: 9 digits with a valid MOD11 check digit'),
)
