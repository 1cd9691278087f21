/**
 * Calendar days in Norway's time zone. hvakosterstrommen.no publishes one file per day of the
 * Oslo calendar, with Oslo's offset on every time, so "today" and the day's hours are counted
 * there, not in UTC.
 */

const osloDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Oslo', year: 'numeric', month: '2-digit', day: '2-digit' })
const osloOffsetName = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Oslo', timeZoneName: 'longOffset' })

/**
 * The Oslo calendar date of an instant, `YYYY-MM-DD`.
 *
 * @example
 * osloDate(Date.parse('2026-03-28T23:30:00Z')) // '2026-03-29'
 */
export function osloDate(ms: number): string {
  return osloDay.format(ms)
}

/**
 * Oslo's offset from UTC at an instant, as ISO 8601 writes it: `+01:00` in winter, `+02:00` in summer.
 *
 * @example
 * osloOffset(Date.parse('2026-07-01T12:00:00Z')) // '+02:00'
 */
export function osloOffset(ms: number): string {
  const name = osloOffsetName.formatToParts(ms).find((part) => part.type === 'timeZoneName')?.value ?? 'GMT'
  // "GMT" alone is UTC itself; otherwise "GMT+01:00".
  return name === 'GMT' ? '+00:00' : name.slice(3)
}

/**
 * The date `days` calendar days after `date` (before, when negative).
 *
 * @example
 * addDays('2026-02-28', 1) // '2026-03-01'
 */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
}

/**
 * Whole days from `from` to `to` (negative when `to` is earlier).
 *
 * @example
 * daysBetween('2026-01-30', '2026-02-02') // 3
 */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000)
}
