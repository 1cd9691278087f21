/**
 * Moves a recorded ISO 8601 time by `deltaMs`, written as it was: the same offset (`Z` or
 * `+02:00`) and fractional seconds only where the recording had them (Java's
 * `ISO_OFFSET_DATE_TIME` leaves them out on a whole second). The demo fakes use it to play a
 * recording as if it were made now.
 *
 * @example
 * shiftIsoTime('2026-09-23T14:05:17.532+02:00', 60_000) // '2026-09-23T14:06:17.532+02:00'
 * shiftIsoTime('2026-09-23T14:05:14+02:00', 1_000) // '2026-09-23T14:05:15+02:00'
 */
export function shiftIsoTime(iso: string, deltaMs: number): string {
  const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:\d\d)$/.exec(iso)
  if (!match) return iso
  const [, , fraction, zone] = match
  const offsetMinutes =
    zone === 'Z' ? 0 : (zone!.startsWith('-') ? -1 : 1) * (Number(zone!.slice(1, 3)) * 60 + Number(zone!.slice(4, 6)))
  const local = new Date(Date.parse(iso) + deltaMs + offsetMinutes * 60_000).toISOString()
  return `${local.slice(0, 19)}${fraction ? local.slice(19, 23) : ''}${zone}`
}
