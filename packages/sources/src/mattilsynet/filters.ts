import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import type { DatasetCondition } from '@allmenning/core/source'

/** The first inspections in the file are from 2016; a `since` before this needs no condition. */
const FIRST_DATE = '2015-01-01'

/** `min_karakter` and `max_karakter`: a total grade 0–3. */
export const gradeParameter = (bound: 'lowest' | 'highest') =>
  v.optional(
    v.pipe(
      v.number(),
      v.integer('must be a whole number'),
      v.minValue(0),
      v.maxValue(3),
      v.description(
        `Only establishments whose latest total grade is at ${bound === 'lowest' ? 'least' : 'most'} this (0–3; 0–1 smiling, 2 straight, 3 sad)`,
      ),
    ),
  )

/** `since`: a date, `YYYY-MM-DD`. */
export const sinceParameter = v.optional(
  v.pipe(
    v.string(),
    v.trim(),
    v.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date, YYYY-MM-DD'),
    v.check(
      (s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
      'must be a real date',
    ),
    v.description('Only establishments whose latest inspection was on or after this date, YYYY-MM-DD'),
  ),
)

/** The condition on the total grade, or undefined when the bounds let every grade through. */
export function gradeCondition(min: number | undefined, max: number | undefined): DatasetCondition | undefined {
  const low = min ?? 0
  const high = max ?? 3
  if (low === 0 && high === 3) return undefined
  const grades: number[] = []
  for (let g = low; g <= high; g++) grades.push(g)
  return { in: grades }
}

/**
 * The condition on the latest inspection's date: every date from `since` to tomorrow, as a
 * list, since a dataset lookup has no ranges (a few thousand values at most, one statement).
 *
 * @example
 * sinceCondition('2026-11-26', new Date('2026-11-28T10:00:00Z')) // { in: ['2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29'] }
 */
export function sinceCondition(since: string | undefined, now: Date): DatasetCondition | undefined {
  if (since === undefined || since <= FIRST_DATE) return undefined
  const dates: string[] = []
  const end = now.getTime() + 86_400_000
  for (let t = Date.parse(`${since}T00:00:00Z`); t <= end; t += 86_400_000)
    dates.push(new Date(t).toISOString().slice(0, 10))
  return { in: dates }
}

/**
 * A 400 naming `min_karakter` when it is above `max_karakter`: no grade could match.
 *
 * @example
 * checkGradeBounds(3, 1) // throws 400 invalid_parameter
 */
export function checkGradeBounds(min: number | undefined, max: number | undefined): void {
  if (min !== undefined && max !== undefined && min > max) {
    const problem = `must not be above max_karakter (${max})`
    throw new GatewayError(400, 'invalid_parameter', `Invalid parameter: min_karakter ${problem}`, {
      details: [{ parameter: 'min_karakter', problem, rule: 'range' }],
    })
  }
}
