import { GatewayError } from '@allmenning/core'
import { addDays, osloDate, osloDateTime, osloMidnight } from '../shared/oslo-time.js'

/** How finely volumes are asked for. */
export type Resolution = 'hour' | 'day'

const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS

/** The longest period one call may ask for, and the period asked when none is given, per resolution. */
export const periodRules: Record<Resolution, { maxMs: number; rule: string; defaultMs: number }> = {
  // Two of Vegvesen's pages of 100 hours.
  hour: { maxMs: 7 * DAY_MS, rule: 'at most 7 days (168 hours) with resolution=hour', defaultMs: DAY_MS },
  // Four pages of 100 days; an hour more for the autumn's 25-hour day.
  day: { maxMs: 366 * DAY_MS + HOUR_MS, rule: 'at most 366 days with resolution=day', defaultMs: 31 * DAY_MS },
}

/** A period ready for trafikkdata's `ZonedDateTime` arguments. */
export interface VolumePeriod {
  from: string
  to: string
}

/** The Oslo midnight `days` calendar days from the one that began the day of `ms` (days are 23 or 25 hours when the clock changes). */
function shiftDays(ms: number, days: number): number {
  return osloMidnight(addDays(osloDate(ms), days))
}

function invalid(parameter: string, problem: string, rule: string): GatewayError {
  return new GatewayError(400, 'invalid_parameter', `Invalid parameter: ${parameter} ${problem}`, {
    details: [{ parameter, problem, rule }],
  })
}

/** The formats `from` and `to` take: a day, or a time with its zone. */
export const periodBoundPattern = /^\d{4}-\d\d-\d\d(T\d\d:\d\d(:\d\d)?(Z|[+-]\d\d:\d\d))?$/

function instantOf(value: string, parameter: string): number {
  const day = /^(\d{4})-(\d\d)-(\d\d)$/.exec(value)
  if (day) {
    const [year, month, date] = [Number(day[1]), Number(day[2]), Number(day[3])]
    const check = new Date(Date.UTC(year, month - 1, date))
    if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== date)
      throw invalid(parameter, `is not a calendar day (${value})`, 'format')
    return osloMidnight(value)
  }
  const ms = Date.parse(value)
  if (Number.isNaN(ms)) throw invalid(parameter, `is not a time (${value})`, 'format')
  return ms
}

/**
 * The period to ask volumes for: `from` and `to` as given (a day is midnight in Oslo), one of
 * them from the other and the default length when left out, the last whole hour (or Oslo's
 * last midnight) as `to` when both are. A period that ends before it begins, or that is longer
 * than the resolution allows, is a 400 naming `to` and the rule.
 *
 * @example
 * volumePeriod('hour', '2026-11-24', '2026-11-25', Date.now()) // { from: '2026-11-24T00:00:00+01:00', to: '2026-11-25T00:00:00+01:00' }
 */
export function volumePeriod(
  resolution: Resolution,
  from: string | undefined,
  to: string | undefined,
  nowMs: number,
): VolumePeriod {
  const rule = periodRules[resolution]
  let end: number
  let start: number
  if (from !== undefined && to !== undefined) {
    start = instantOf(from, 'from')
    end = instantOf(to, 'to')
  } else if (from !== undefined) {
    start = instantOf(from, 'from')
    end = resolution === 'day' ? shiftDays(start, rule.defaultMs / DAY_MS) : start + rule.defaultMs
  } else {
    end =
      to !== undefined
        ? instantOf(to, 'to')
        : resolution === 'hour'
          ? Math.floor(nowMs / HOUR_MS) * HOUR_MS
          : shiftDays(nowMs, 0)
    // Days back are calendar days, so a month across the clock change still starts at midnight.
    start = resolution === 'day' ? shiftDays(end, -rule.defaultMs / DAY_MS) : end - rule.defaultMs
  }
  if (end <= start) throw invalid('to', 'must be after from', 'after_from')
  if (end - start > rule.maxMs) {
    const days = Math.round(((end - start) / DAY_MS) * 10) / 10
    throw invalid('to', `makes a period of ${days} days; the period is ${rule.rule}`, 'max_period')
  }
  return { from: osloDateTime(start), to: osloDateTime(end) }
}
