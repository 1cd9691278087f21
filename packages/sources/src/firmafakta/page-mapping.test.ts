import { describe, expect, it } from 'vitest'
import { BRREG_MAX_DEPTH, planPages } from './page-mapping.js'

/**
 * Brønnøysund's paging, in memory: rows 0..total-1, `page` 0-based, and a refusal (their
 * HTTP 400) when page × size goes past the depth limit.
 */
function brregPage(total: number, page: number, size: number): number[] {
  if (page * size > BRREG_MAX_DEPTH) throw new Error(`400: page ${page} × size ${size} > ${BRREG_MAX_DEPTH}`)
  const rows: number[] = []
  for (let row = page * size; row < Math.min(total, page * size + size); row++) rows.push(row)
  return rows
}

/** Runs a plan the way fetch-window does and returns the rows of the window. */
function fetchThroughPlan(total: number, start: number, end: number) {
  const plan = planPages(start, end)
  const rows: number[] = []
  let calls = 0
  for (let page = plan.firstPage; page <= plan.lastPage; page++) {
    const items = brregPage(total, page, plan.size)
    calls++
    rows.push(...items)
    if (items.length < plan.size) break
  }
  return { plan, calls, rows: rows.slice(plan.skip, plan.skip + (end - start)) }
}

const range = (from: number, to: number) => Array.from({ length: Math.max(to - from, 0) }, (_, i) => from + i)

describe('planPages', () => {
  it('reads every window inside one page of 100 from that page, which windows beside it share', () => {
    expect(planPages(0, 25)).toEqual({ size: 100, firstPage: 0, lastPage: 0, skip: 0 })
    expect(planPages(25, 50)).toEqual({ size: 100, firstPage: 0, lastPage: 0, skip: 25 })
    expect(planPages(30, 55)).toEqual({ size: 100, firstPage: 0, lastPage: 0, skip: 30 })
    expect(planPages(200, 300)).toEqual({ size: 100, firstPage: 2, lastPage: 2, skip: 0 })
  })

  it('takes one smaller page rather than two of 100 for a window across a boundary', () => {
    expect(planPages(90, 110)).toEqual({ size: 22, firstPage: 4, lastPage: 4, skip: 2 })
    expect(planPages(180, 230)).toEqual({ size: 58, firstPage: 3, lastPage: 3, skip: 6 })
  })

  it('falls back to two pages of 100 when no single page covers the window', () => {
    expect(planPages(60, 160)).toEqual({ size: 100, firstPage: 0, lastPage: 1, skip: 60 })
    expect(planPages(50, 150)).toEqual({ size: 100, firstPage: 0, lastPage: 1, skip: 50 })
  })

  it('stays within the depth limit at the very end of what can be paged', () => {
    const plan = planPages(9970, 10_000)
    expect((plan.lastPage + 1) * plan.size).toBeLessThanOrEqual(BRREG_MAX_DEPTH)
    expect(plan.firstPage * plan.size + plan.skip).toBe(9970)
  })

  it('refuses windows it cannot page', () => {
    expect(() => planPages(5, 5)).toThrow(RangeError)
    expect(() => planPages(-1, 5)).toThrow(RangeError)
    expect(() => planPages(9990, 10_001)).toThrow(RangeError)
    expect(() => planPages(1.5, 3)).toThrow(RangeError)
  })

  it('returns exactly the rows [offset, offset + limit) for every limit 1..100 near both ends of the range', () => {
    let worst = 0
    for (let limit = 1; limit <= 100; limit++) {
      for (const start of [...range(0, 300), ...range(BRREG_MAX_DEPTH - 300, BRREG_MAX_DEPTH)]) {
        const end = Math.min(start + limit, BRREG_MAX_DEPTH)
        const { plan, calls, rows } = fetchThroughPlan(BRREG_MAX_DEPTH, start, end)
        if (rows.length !== end - start || rows[0] !== start || rows[rows.length - 1] !== end - 1) {
          throw new Error(`limit ${limit}, offset ${start}: got rows ${rows[0]}..${rows[rows.length - 1]}`)
        }
        expect(plan.size).toBeLessThanOrEqual(100)
        expect((plan.lastPage + 1) * plan.size).toBeLessThanOrEqual(BRREG_MAX_DEPTH)
        worst = Math.max(worst, calls)
      }
    }
    expect(worst).toBe(2)
  })

  it('loses and repeats no row for random (limit, offset, total), including short and empty tails', () => {
    // A small deterministic generator, so a failure can be reproduced.
    let seed = 20_240_611
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
      return seed % n
    }
    for (let i = 0; i < 20_000; i++) {
      const total = random(3) === 0 ? random(300) : random(12_000)
      const limit = 1 + random(100)
      const offset = random(2) === 0 ? random(400) : random(BRREG_MAX_DEPTH)
      const end = Math.min(offset + limit, BRREG_MAX_DEPTH)
      const { rows } = fetchThroughPlan(total, offset, end)
      const expected = range(offset, Math.min(end, total))
      if (rows.join() !== expected.join()) {
        throw new Error(`total ${total}, limit ${limit}, offset ${offset}: got [${rows.join()}]`)
      }
    }
  })
})
