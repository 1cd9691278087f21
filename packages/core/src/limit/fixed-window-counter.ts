/** One client's count in the current window of a quota. */
export interface WindowCount {
  /** Requests counted in this window, this one included. */
  consumed: number
  /** When the window ends, in `Date.now()` milliseconds. */
  resetsAt: number
}

/**
 * Fixed windows per key, counted in this process: a key's window starts with its first
 * request and lasts `windowMs`, as rate-limiter-flexible's windows do, so the counts read the
 * same whether they are kept here or in Redis. A hit is a map lookup and an addition, with no
 * promise and no timer; ended windows are swept out once per window, so a scan by many
 * addresses leaves nothing behind after it.
 */
export class FixedWindowCounter {
  private readonly windows = new Map<string, WindowCount>()
  private sweepAt: number

  constructor(private readonly windowMs: number) {
    this.sweepAt = Date.now() + windowMs
  }

  /**
   * Counts one request of `key` at `now` and gives its window. The object is this counter's
   * own and is changed by the next hit of the same key: read it at once.
   *
   * @example
   * const counter = new FixedWindowCounter(60_000)
   * const { consumed, resetsAt } = counter.hit('192.0.2.7', Date.now())
   */
  hit(key: string, now: number): WindowCount {
    if (now >= this.sweepAt) this.sweep(now)
    const known = this.windows.get(key)
    if (known !== undefined && known.resetsAt > now) {
      known.consumed++
      return known
    }
    const started = { consumed: 1, resetsAt: now + this.windowMs }
    this.windows.set(key, started)
    return started
  }

  /** How many keys have a window open (ended ones may linger until the next sweep). */
  get size(): number {
    return this.windows.size
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetsAt <= now) this.windows.delete(key)
    this.sweepAt = now + this.windowMs
  }
}
