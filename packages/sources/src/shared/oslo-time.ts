/**
 * Norway's calendar and clock, for upstreams that count days in Oslo (hvakosterstrommen.no's
 * files, NVE's warnings), write local times without an offset (NVE), or take times with
 * Oslo's offset (Vegvesen's trafikkdata). Dates are `YYYY-MM-DD` strings; instants are
 * milliseconds since the epoch.
 */

const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS

// Made on first use: the first formatter with a time zone loads the zone data, some 15 ms that
// a cold start which never counts a day in Oslo should not pay.
let osloDay: Intl.DateTimeFormat | undefined
let osloOffsetName: Intl.DateTimeFormat | undefined

/**
 * Minutes Oslo is ahead of UTC at an instant: 60 in winter, 120 in summer.
 *
 * @example
 * osloOffsetMinutes(Date.parse('2026-07-01T12:00:00Z')) // 120
 */
export function osloOffsetMinutes(ms: number): number {
  // "GMT+01:00", or "GMT" alone for UTC itself.
  osloOffsetName ??= new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Oslo', timeZoneName: 'longOffset' })
  const name = osloOffsetName.formatToParts(ms).find((part) => part.type === 'timeZoneName')?.value ?? 'GMT'
  const match = /GMT([+-])(\d\d):(\d\d)/.exec(name)
  return match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0
}

/** An offset in minutes as ISO 8601 writes it: `+01:00`. */
function isoOffset(minutes: number): string {
  const abs = Math.abs(minutes)
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
}

/**
 * Oslo's offset from UTC at an instant: `+01:00` in winter, `+02:00` in summer.
 *
 * @example
 * osloOffset(Date.parse('2026-07-01T12:00:00Z')) // '+02:00'
 */
export function osloOffset(ms: number): string {
  return isoOffset(osloOffsetMinutes(ms))
}

/**
 * The Oslo calendar date of an instant (now, when none is given).
 *
 * @example
 * osloDate(Date.parse('2026-03-28T23:30:00Z')) // '2026-03-29'
 */
export function osloDate(ms: number = Date.now()): string {
  osloDay ??= new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Oslo',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  })
  return osloDay.format(ms)
}

/**
 * An instant as Oslo's wall clock shows it, with the offset: `2026-11-25T07:00:00+01:00`.
 *
 * @example
 * osloDateTime(Date.UTC(2026, 6, 1, 10)) // '2026-07-01T12:00:00+02:00'
 */
export function osloDateTime(ms: number): string {
  const offset = osloOffsetMinutes(ms)
  return `${new Date(ms + offset * 60_000).toISOString().slice(0, 19)}${isoOffset(offset)}`
}

/**
 * The instant of midnight in Oslo at the start of a date (Oslo never changes its clock at
 * midnight, so that hour always exists).
 *
 * @example
 * osloMidnight('2026-07-01') // Date.parse('2026-06-30T22:00:00Z')
 */
export function osloMidnight(date: string): number {
  const utcMidnight = Date.parse(`${date}T00:00:00Z`)
  return utcMidnight - osloOffsetMinutes(utcMidnight - 2 * HOUR_MS) * 60_000
}

/**
 * A local time in Oslo written without an offset, as NVE writes its times, with the offset
 * Oslo had then; a value that already has an offset or a `Z`, or is not a time at all, is
 * given back unchanged, and null stays null.
 *
 * @example
 * osloLocalToIso('2026-01-14T07:00:00') // '2026-01-14T07:00:00+01:00'
 * osloLocalToIso('2026-07-01T07:00') // '2026-07-01T07:00:00+02:00'
 */
export function osloLocalToIso(local: string | null | undefined): string | null {
  if (!local) return null
  const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d)?)(\.\d+)?$/.exec(local)
  if (!match) return local
  const wall = match[1]!.length === 16 ? `${match[1]}:00` : match[1]!
  const asUtc = Date.parse(`${wall}Z`)
  if (Number.isNaN(asUtc)) return local
  // The offset at the instant the wall time would be in UTC, then once more at the corrected
  // instant, which settles the hours around the change to and from summer time.
  let offset = osloOffsetMinutes(asUtc)
  offset = osloOffsetMinutes(asUtc - offset * 60_000)
  return `${wall}${isoOffset(offset)}`
}

/**
 * The date `days` calendar days after `date` (before, when negative).
 *
 * @example
 * addDays('2026-02-28', 1) // '2026-03-01'
 */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10)
}

/**
 * Whole days from `from` to `to` (negative when `to` is earlier).
 *
 * @example
 * daysBetween('2026-01-30', '2026-02-02') // 3
 */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS)
}
