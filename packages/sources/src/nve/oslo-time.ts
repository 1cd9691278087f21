// NVE writes every time as Norwegian local time without an offset ("2026-01-14T07:00:00") and
// takes its dates as Norwegian calendar days; these turn both into unambiguous values.

const osloParts = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Oslo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
})

function wallClock(ms: number): { date: string; utcMs: number } {
  const parts = Object.fromEntries(osloParts.formatToParts(new Date(ms)).map((p) => [p.type, p.value]))
  const date = `${parts['year']}-${parts['month']}-${parts['day']}`
  return { date, utcMs: Date.parse(`${date}T${parts['hour']}:${parts['minute']}:${parts['second']}Z`) }
}

/**
 * Today's date in Norway, `YYYY-MM-DD`, the day NVE's warnings are asked for.
 *
 * @example
 * osloDate(Date.parse('2026-01-14T23:30:00Z')) // '2026-01-15'
 */
export function osloDate(nowMs: number = Date.now()): string {
  return wallClock(nowMs).date
}

/**
 * The day after a `YYYY-MM-DD` date.
 *
 * @example
 * nextDate('2026-02-28') // '2026-03-01'
 */
export function nextDate(date: string): string {
  return new Date(Date.parse(`${date}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
}

/**
 * A Norwegian local time as NVE writes it, with the offset Norway had then
 * (`+01:00` in winter, `+02:00` in summer); a value that already has an offset or a `Z`, or
 * is not a time at all, is given back unchanged, and null stays null.
 *
 * @example
 * osloLocalToIso('2026-01-14T07:00:00') // '2026-01-14T07:00:00+01:00'
 * osloLocalToIso('2026-07-01T07:00:00') // '2026-07-01T07:00:00+02:00'
 */
export function osloLocalToIso(local: string | null | undefined): string | null {
  if (!local) return null
  const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d)?)(\.\d+)?$/.exec(local)
  if (!match) return local
  const wall = match[1]!.length === 16 ? `${match[1]}:00` : match[1]!
  const asUtc = Date.parse(`${wall}Z`)
  if (Number.isNaN(asUtc)) return local
  // The offset at the instant the wall time would be in UTC, then checked once more at the
  // corrected instant, which settles the hours around the change to and from summer time.
  let offset = wallClock(asUtc).utcMs - asUtc
  offset = wallClock(asUtc - offset).utcMs - (asUtc - offset)
  const minutes = Math.round(offset / 60_000)
  const sign = minutes < 0 ? '-' : '+'
  const abs = Math.abs(minutes)
  return `${wall}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
}
