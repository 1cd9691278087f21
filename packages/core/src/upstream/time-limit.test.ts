import { getEventListeners } from 'node:events'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { startTimeLimit } from './time-limit.js'

/** Resolves when `signal` aborts, with how long that took. */
function abortOf(signal: AbortSignal): Promise<number> {
  const started = performance.now()
  return new Promise((resolve) =>
    signal.addEventListener('abort', () => resolve(performance.now() - started), { once: true }),
  )
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('startTimeLimit', () => {
  it('aborts at its time with a TimeoutError', async () => {
    const limit = startTimeLimit(100)
    const ms = await abortOf(limit.signal)
    expect(ms).toBeGreaterThanOrEqual(95)
    expect(ms).toBeLessThan(1000)
    expect(limit.signal.reason).toMatchObject({ name: 'TimeoutError' })
    limit.clear()
  })

  it('aborts as soon as the other signal does, for its reason, or at once when it already has', async () => {
    const deadline = new AbortController()
    const limit = startTimeLimit(5000, deadline.signal)
    setTimeout(() => deadline.abort(new DOMException('the deadline', 'TimeoutError')), 50)
    expect(await abortOf(limit.signal)).toBeLessThan(1000)
    expect(limit.signal.reason).toMatchObject({ message: 'the deadline' })
    limit.clear()

    const late = startTimeLimit(5000, deadline.signal)
    expect(late.signal.aborted).toBe(true)
    late.clear()
  })

  it('once cleared never aborts, and leaves nothing on the other signal', async () => {
    const deadline = new AbortController()
    const limit = startTimeLimit(50, deadline.signal)
    expect(getEventListeners(deadline.signal, 'abort')).toHaveLength(1)
    limit.clear()
    expect(getEventListeners(deadline.signal, 'abort')).toHaveLength(0)
    await wait(100)
    deadline.abort()
    expect(limit.signal.aborted).toBe(false)
  })

  it('aborts at its time while garbage is collected, with a longer deadline beside it', async () => {
    // AbortSignal.any([AbortSignal.timeout(100), deadline]) waits for the deadline here: the
    // collector takes the timeout signal, which nothing holds but weakly (nodejs/node#57736).
    setFlagsFromString('--expose-gc')
    const collect = runInNewContext('gc') as () => void
    const deadline = AbortSignal.timeout(3000)
    const limit = startTimeLimit(100, deadline)
    const collecting = setInterval(collect, 10)
    try {
      expect(await Promise.race([abortOf(limit.signal), abortOf(deadline).then(() => Infinity)])).toBeLessThan(1000)
    } finally {
      clearInterval(collecting)
      limit.clear()
    }
  })
})
