import { describe, expect, it } from 'vitest'
import { addDays, daysBetween, osloDate, osloDateTime, osloLocalToIso, osloMidnight, osloOffset } from './oslo-time.js'

describe('Oslo time', () => {
  it('gives a local time without an offset the one Norway had then, around both changes of summer time', () => {
    expect(osloLocalToIso('2026-03-29T01:59:00')).toBe('2026-03-29T01:59:00+01:00')
    expect(osloLocalToIso('2026-03-29T03:00:00')).toBe('2026-03-29T03:00:00+02:00')
    expect(osloLocalToIso('2026-10-25T01:30:00')).toBe('2026-10-25T01:30:00+02:00')
    expect(osloLocalToIso('2026-10-25T04:00:00')).toBe('2026-10-25T04:00:00+01:00')
    expect(osloLocalToIso('2026-01-14T07:00')).toBe('2026-01-14T07:00:00+01:00')
    expect(osloLocalToIso('2026-01-14T07:00:00.1234567')).toBe('2026-01-14T07:00:00+01:00')
  })

  it('leaves a time that has its offset, or is none, as it is', () => {
    expect(osloLocalToIso('2026-01-14T22:51:03.1505425+02:00')).toBe('2026-01-14T22:51:03.1505425+02:00')
    expect(osloLocalToIso('soon')).toBe('soon')
    expect(osloLocalToIso(null)).toBeNull()
  })

  it('writes an instant as the wall clock in Oslo shows it, with the offset', () => {
    expect(osloDateTime(Date.UTC(2026, 2, 29, 0, 59))).toBe('2026-03-29T01:59:00+01:00')
    expect(osloDateTime(Date.UTC(2026, 2, 29, 1))).toBe('2026-03-29T03:00:00+02:00')
    expect(osloOffset(Date.UTC(2026, 0, 14))).toBe('+01:00')
    expect(osloOffset(Date.UTC(2026, 6, 1))).toBe('+02:00')
  })

  it('counts days in Oslo: the date of an instant, midnight of a date, days apart', () => {
    expect(osloDate(Date.parse('2026-03-28T23:30:00Z'))).toBe('2026-03-29')
    expect(osloDate(Date.parse('2026-07-01T21:59:00Z'))).toBe('2026-07-01')
    expect(osloMidnight('2026-07-01')).toBe(Date.parse('2026-06-30T22:00:00Z'))
    // The day summer time begins is 23 hours long, the day it ends 25.
    expect(osloMidnight('2026-03-30') - osloMidnight('2026-03-29')).toBe(23 * 3_600_000)
    expect(osloMidnight('2026-10-26') - osloMidnight('2026-10-25')).toBe(25 * 3_600_000)
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01')
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28')
    expect(daysBetween('2026-01-30', '2026-02-02')).toBe(3)
  })
})
