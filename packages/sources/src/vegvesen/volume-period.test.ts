import { describe, expect, it } from 'vitest'
import { osloDateTime } from '../shared/oslo-time.js'
import { volumePeriod } from './volume-period.js'

const now = Date.parse('2026-11-25T07:42:10Z')

describe('volumePeriod', () => {
  it('takes a day as midnight in Oslo, in winter and in summer', () => {
    expect(volumePeriod('hour', '2026-11-24', '2026-11-25', now)).toEqual({
      from: '2026-11-24T00:00:00+01:00',
      to: '2026-11-25T00:00:00+01:00',
    })
    expect(volumePeriod('day', '2026-06-01', '2026-07-01', now)).toEqual({
      from: '2026-06-01T00:00:00+02:00',
      to: '2026-07-01T00:00:00+02:00',
    })
  })

  it('writes a time with its zone in Oslo time', () => {
    expect(volumePeriod('hour', '2026-11-24T05:00:00Z', '2026-11-24T07:00Z', now)).toEqual({
      from: '2026-11-24T06:00:00+01:00',
      to: '2026-11-24T08:00:00+01:00',
    })
    expect(osloDateTime(Date.UTC(2026, 2, 29, 1))).toBe('2026-03-29T03:00:00+02:00')
  })

  it('fills what is left out: the last whole hour or Oslo midnight, and the default length', () => {
    expect(volumePeriod('hour', undefined, undefined, now)).toEqual({
      from: '2026-11-24T08:00:00+01:00',
      to: '2026-11-25T08:00:00+01:00',
    })
    expect(volumePeriod('day', undefined, undefined, now)).toEqual({
      from: '2026-10-25T00:00:00+02:00',
      to: '2026-11-25T00:00:00+01:00',
    })
    expect(volumePeriod('hour', '2026-11-20', undefined, now)).toEqual({
      from: '2026-11-20T00:00:00+01:00',
      to: '2026-11-21T00:00:00+01:00',
    })
    expect(volumePeriod('hour', undefined, '2026-11-20', now)).toEqual({
      from: '2026-11-19T00:00:00+01:00',
      to: '2026-11-20T00:00:00+01:00',
    })
  })

  it('refuses a period that is too long or backwards, naming to and the rule', () => {
    const refusal = (run: () => unknown) => {
      try {
        run()
      } catch (error) {
        return { status: (error as { status: number }).status, details: (error as { details: unknown }).details }
      }
      return undefined
    }
    expect(refusal(() => volumePeriod('hour', '2026-11-01', '2026-11-09', now))).toEqual({
      status: 400,
      details: [
        {
          parameter: 'to',
          problem: 'makes a period of 8 days; the period is at most 7 days (168 hours) with resolution=hour',
          rule: 'max_period',
        },
      ],
    })
    expect(refusal(() => volumePeriod('day', '2025-01-01', '2026-01-03', now))?.details).toEqual([
      expect.objectContaining({
        parameter: 'to',
        rule: 'max_period',
        problem: expect.stringMatching(/at most 366 days with resolution=day/),
      }),
    ])
    expect(refusal(() => volumePeriod('hour', '2026-11-02', '2026-11-01', now))?.details).toEqual([
      { parameter: 'to', problem: 'must be after from', rule: 'after_from' },
    ])
    expect(refusal(() => volumePeriod('hour', '2026-02-30', undefined, now))?.details).toEqual([
      expect.objectContaining({ parameter: 'from', rule: 'format' }),
    ])
    expect(volumePeriod('hour', '2026-11-01', '2026-11-08', now).to).toBe('2026-11-08T00:00:00+01:00')
  })
})
