/**
 * Nine digits, as people write them (`974 590 328` too), passing the MOD11 check of
 * Brønnøysund's organisation numbers; undefined otherwise.
 *
 * @example
 * organisationNumberIn('974 590 328') // '974590328'
 */
export function organisationNumberIn(text: string): string | undefined {
  const digits = text.trim().replace(/[\s.]/g, '')
  if (!/^\d{9}$/.test(digits)) return undefined
  const weights = [3, 2, 7, 6, 5, 4, 3, 2]
  const sum = weights.reduce((acc, w, i) => acc + w * Number(digits[i]), 0)
  const rest = 11 - (sum % 11)
  const check = rest === 11 ? 0 : rest
  return check !== 10 && check === Number(digits[8]) ? digits : undefined
}
