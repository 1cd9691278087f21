import { describe, expect, it } from 'vitest'
import { FixedWindowCounter } from './fixed-window-counter.js'

describe('FixedWindowCounter', () => {
  it("starts a key's window at its first request and counts within it", () => {
    const counter = new FixedWindowCounter(60_000)
    const start = Date.now()
    expect(counter.hit('a', start)).toEqual({ consumed: 1, resetsAt: start + 60_000 })
    expect(counter.hit('a', start + 10_000)).toEqual({ consumed: 2, resetsAt: start + 60_000 })
    // Another client has a window of its own, from its own first request.
    expect(counter.hit('b', start + 30_000)).toEqual({ consumed: 1, resetsAt: start + 90_000 })
    expect(counter.hit('a', start + 59_999).consumed).toBe(3)
  })

  it('starts a new window once the last one has ended', () => {
    const counter = new FixedWindowCounter(1_000)
    const start = Date.now()
    counter.hit('a', start)
    counter.hit('a', start + 500)
    expect(counter.hit('a', start + 1_000)).toEqual({ consumed: 1, resetsAt: start + 2_000 })
  })

  it('forgets ended windows, so many clients seen once leave nothing behind', () => {
    const counter = new FixedWindowCounter(1_000)
    const start = Date.now()
    for (let i = 0; i < 10_000; i++) counter.hit(`198.51.100.${i}`, start)
    expect(counter.size).toBe(10_000)
    counter.hit('one more', start + 2_000)
    expect(counter.size).toBe(1)
  })
})
