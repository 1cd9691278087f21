import { describe, expect, it } from 'vitest'
import { createUpstreamAnswerMemo, type RawUpstreamAnswer } from './upstream-answer-memo.js'

const answer = (size: number): RawUpstreamAnswer => ({
  status: 200,
  url: 'https://x.example/flow',
  contentType: 'application/json',
  headers: {},
  bytes: Buffer.alloc(size, 0x20),
})

describe('createUpstreamAnswerMemo', () => {
  it('answers only callers for whom the answer is young enough', () => {
    const memo = createUpstreamAnswerMemo(1024 * 1024)
    memo.remember('a', answer(10), 1_000)
    expect(memo.fresh('a', 60_000, 30_000)?.storedAt).toBe(1_000)
    expect(memo.fresh('a', 10_000, 30_000)).toBeUndefined()
    // Still there for a caller that keeps answers longer.
    expect(memo.fresh('a', 60_000, 60_999)).toBeDefined()
    expect(memo.fresh('a', 60_000, 61_000)).toBeUndefined()
  })

  it('holds at most its byte budget, forgetting the least recently used first', () => {
    const memo = createUpstreamAnswerMemo(3 * (100_000 + 1024))
    for (const key of ['a', 'b', 'c']) memo.remember(key, answer(100_000), 0)
    memo.fresh('a', 1_000, 1)
    memo.remember('d', answer(100_000), 0)
    expect(memo.fresh('b', 1_000, 1)).toBeUndefined()
    expect(['a', 'c', 'd'].map((key) => memo.fresh(key, 1_000, 1) !== undefined)).toEqual([true, true, true])
    expect(memo.bytes).toBeLessThanOrEqual(3 * (100_000 + 1024))
    // An answer larger than the whole budget is not kept.
    memo.remember('huge', answer(400_000), 0)
    expect(memo.fresh('huge', 1_000, 1)).toBeUndefined()
  })
})
