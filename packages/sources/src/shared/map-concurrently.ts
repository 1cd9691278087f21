/**
 * Maps `items` through an async `map` with at most `limit` calls in flight, keeping the order
 * of `items` in the result: for fetching many things from one upstream without a burst
 * (decision pages from domstol.no, addresses from Kartverket). The first rejection rejects the
 * whole, as `Promise.all` does; a `map` that must not stop the others catches its own errors.
 *
 * @example
 * const pages = await mapConcurrently(['/2024', '/2025', '/2026'], 2, (path) => client.getText(path))
 */
export async function mapConcurrently<T, R>(
  items: readonly T[],
  limit: number,
  map: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  const workers = Array.from({ length: Math.min(Math.max(1, limit), items.length) }, async () => {
    while (next < items.length) {
      const i = next++
      results[i] = await map(items[i] as T)
    }
  })
  await Promise.all(workers)
  return results
}
