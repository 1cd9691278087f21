import { describe, expect, it } from 'vitest'
import { UpstreamError } from '@allmenning/core/source'
import { createRequestBudget } from './request-budget.js'

const met = { id: 'met_locationforecast', name: 'MET Norway Locationforecast' }

/** A hand-driven clock whose sleeps advance it, so the schedule can be read off exactly. */
function clock() {
  let t = 10_000
  const slept: number[] = []
  return {
    now: () => t,
    sleep: async (ms: number) => {
      slept.push(ms)
    },
    advance: (ms: number) => void (t += ms),
    slept,
  }
}

describe('createRequestBudget', () => {
  it('lets a full window through at once, then spaces the next calls one window after their predecessors', async () => {
    const c = clock()
    const budget = createRequestBudget({ requests: 3, perMs: 1000, maxWaitMs: 5000, now: c.now, sleep: c.sleep })
    await budget.take(met)
    c.advance(100)
    await budget.take(met)
    await budget.take(met)
    expect(c.slept).toEqual([])
    // The 4th may start 1000 ms after the 1st (at 11 000), the 5th 1000 ms after the 2nd.
    await budget.take(met)
    await budget.take(met)
    expect(c.slept).toEqual([900, 1000])
    expect(budget.inWindow).toBe(5)
  })

  it('never has more than `requests` starts in any window', async () => {
    const c = clock()
    const starts: number[] = []
    const budget = createRequestBudget({
      requests: 20,
      perMs: 1000,
      maxWaitMs: 60_000,
      now: c.now,
      sleep: async (ms) => void starts.push(c.now() + ms),
    })
    for (let i = 0; i < 100; i++) {
      const before = starts.length
      await budget.take(met)
      if (starts.length === before) starts.push(c.now())
      c.advance(7)
    }
    for (const start of starts) {
      expect(starts.filter((s) => s > start - 1000 && s <= start).length).toBeLessThanOrEqual(20)
    }
  })

  it('refuses a call that would wait longer than maxWaitMs with a 502 naming the upstream', async () => {
    const c = clock()
    const budget = createRequestBudget({ requests: 2, perMs: 1000, maxWaitMs: 500, now: c.now, sleep: c.sleep })
    await budget.take(met)
    await budget.take(met)
    const refused = await budget.take(met).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(UpstreamError)
    expect(refused).toMatchObject({ status: 502, code: 'upstream_unavailable' })
    expect((refused as Error).message).toMatch(
      /^Upstream MET Norway Locationforecast \(met_locationforecast\) was not called: .*2 requests per 1 s/,
    )
    // The refusal says when a call would be let through again: the third may start at 11 000, 500 ms past the longest wait.
    expect((refused as Error).message).toMatch(/try again in 1 s$/)
    expect((refused as UpstreamError).headers).toEqual({ 'retry-after': '1' })
    // A refused call takes no slot: once the window has moved on, calls go through again.
    c.advance(1000)
    await expect(budget.take(met)).resolves.toBeUndefined()
  })

  it('waits on a real timer by default', async () => {
    const budget = createRequestBudget({ requests: 1, perMs: 60, maxWaitMs: 1000 })
    const started = Date.now()
    await budget.take(met)
    await budget.take(met)
    expect(Date.now() - started).toBeGreaterThanOrEqual(50)
  })
})
