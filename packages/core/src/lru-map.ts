/**
 * A Map that holds at most `maxEntries`, forgetting the least recently used first.
 *
 * @example
 * const recent = createLruMap<string, number>(2)
 * recent.set('a', 1); recent.set('b', 2); recent.get('a'); recent.set('c', 3) // 'b' is gone
 */
export interface LruMap<K, V> {
  get(key: K): V | undefined
  set(key: K, value: V): void
  delete(key: K): void
  readonly size: number
}

export function createLruMap<K, V>(maxEntries: number): LruMap<K, V> {
  const entries = new Map<K, V>()
  // The most recently used key: reading it again needs no reordering.
  let newest: K | undefined
  return {
    get size() {
      return entries.size
    },
    get(key) {
      const value = entries.get(key)
      if (value === undefined || key === newest) return value
      // Re-inserting moves the key to the end, so Map order is least recently used first.
      entries.delete(key)
      entries.set(key, value)
      newest = key
      return value
    },
    set(key, value) {
      if (maxEntries <= 0) return
      entries.delete(key)
      entries.set(key, value)
      newest = key
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value as K)
    },
    delete(key) {
      entries.delete(key)
      if (key === newest) newest = undefined
    },
  }
}
