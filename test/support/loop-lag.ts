/** A running measurement of how long the event loop was kept from timers. */
export interface LagProbe {
  /** Stops measuring; the longest stretch, in ms, that a 2 ms timer fired late. */
  stop(): number
}

/**
 * Measures event-loop blocking the way a `/health` request would feel it: a timer that should
 * fire every 2 ms, and the worst delay it saw.
 *
 * @example
 * const probe = startLagProbe()
 * await gateway.handle(request)
 * expect(probe.stop()).toBeLessThan(50)
 */
export function startLagProbe(): LagProbe {
  const every = 2
  let last = performance.now()
  let worst = 0
  const timer = setInterval(() => {
    const now = performance.now()
    worst = Math.max(worst, now - last - every)
    last = now
  }, every)
  return {
    stop() {
      clearInterval(timer)
      return Math.max(worst, performance.now() - last - every)
    },
  }
}
