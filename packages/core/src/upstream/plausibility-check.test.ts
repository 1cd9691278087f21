import { describe, expect, it } from 'vitest'
import { listSizeCheck } from './plausibility-check.js'
import { UpstreamError } from '../http/upstream-error.js'

describe('listSizeCheck', () => {
  const upstream = { id: 'reg', name: 'Register' }

  it('refuses a list below its minimum and accepts one at it', () => {
    const check = listSizeCheck<number[]>({ upstream, what: 'site list', count: (l) => l.length, minimum: 3 })
    const error = check([1, 2], undefined)
    expect(error).toBeInstanceOf(UpstreamError)
    expect(error?.code).toBe('upstream_invalid_response')
    expect(error?.message).toContain('sent an implausible site list (2 items, at least 3 expected)')
    expect(check([1, 2, 3], undefined)).toBeUndefined()
  })

  it('refuses a list that kept less than keepShare of the last good one', () => {
    const check = listSizeCheck<number[]>({ upstream, what: 'site list', count: (l) => l.length, keepShare: 0.8 })
    expect(check([1, 2, 3], [1, 2, 3, 4, 5])?.message).toContain('(3 items, 5 in the last good one expected)')
    expect(check([1, 2, 3, 4], [1, 2, 3, 4, 5])).toBeUndefined()
    expect(
      listSizeCheck<number[]>({ upstream, what: 'l', count: (l) => l.length, keepShare: 0 })([1], [1, 2, 3]),
    ).toBeUndefined()
  })

  it('names the upstream the value says it came from', () => {
    const check = listSizeCheck<{ from: { id: string; name: string }; items: number[] }>({
      upstream: (v) => v.from,
      what: 'site list',
      count: (v) => v.items.length,
    })
    expect(check({ from: { id: 'b', name: 'Fallback' }, items: [] }, undefined)?.upstream).toEqual({
      id: 'b',
      name: 'Fallback',
    })
  })
})
