/**
 * Reads a number as Statnett sends it: a JSON number, or a string with U+00A0 (or plain
 * space) thousands separators and a decimal comma; `"-"` and blanks mean missing.
 *
 * @example
 * parseStatnettNumber('20\u00a0685') // 20685
 * parseStatnettNumber('-') // null
 */
export function parseStatnettNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  if (typeof value !== 'string') return null
  const text = value.replace(/[\s\u00a0\u202f]/g, '').replace(',', '.')
  if (text === '' || text === '-') return null
  // A leading Unicode minus sign appears in some localized exports.
  const number = Number(text.replace(/^\u2212/, '-'))
  return Number.isFinite(number) ? number : null
}

/** Epoch milliseconds to ISO 8601 UTC, or null when the value is not a usable time. */
export function epochMsToIso(value: unknown): string | null {
  const ms = typeof value === 'string' ? Number(value) : value
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return null
  const date = new Date(ms)
  return Number.isNaN(date.getTime()) ? null : date.toISOString()
}
