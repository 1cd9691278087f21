/**
 * Runs one call per key at a time: callers that ask for a key already in flight share its
 * promise instead of starting their own.
 *
 * @example
 * const flights = createSingleFlight<string>()
 * const [a, b] = await Promise.all([flights.run('k', load), flights.run('k', load)]) // load ran once
 */
export interface SingleFlight<T> {
  /** `shared` is true for callers that joined a call already in flight. */
  run(key: string, call: () => Promise<T>): Promise<{ value: T; shared: boolean }>
  readonly size: number
}

export function createSingleFlight<T>(): SingleFlight<T> {
  const inFlight = new Map<string, Promise<T>>()
  return {
    get size() {
      return inFlight.size
    },
    async run(key, call) {
      const existing = inFlight.get(key)
      if (existing) return { value: await existing, shared: true }
      const promise = call().finally(() => inFlight.delete(key))
      inFlight.set(key, promise)
      return { value: await promise, shared: false }
    },
  }
}
