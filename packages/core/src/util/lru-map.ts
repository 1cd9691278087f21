/**
 * A Map that holds at most `maxEntries` (and, with `weigh`, at most `maxWeight` in all),
 * forgetting the least recently used first. A value heavier than `maxWeight` is not kept.
 *
 * @example
 * const recent = createLruMap<string, number>(2)
 * recent.set('a', 1); recent.set('b', 2); recent.get('a'); recent.set('c', 3) // 'b' is gone
 */
export interface LruMap<K, V> {
  get(key: K): V | undefined
  /** The value for `key` without making it the most recently used. */
  peek(key: K): V | undefined
  set(key: K, value: V): void
  delete(key: K): void
  /** Forgets everything. */
  clear(): void
  readonly size: number
  /** The summed weight of what is held (the entry count when no `weigh` is given). */
  readonly weight: number
}

export function createLruMap<K, V>(
  maxEntries: number,
  budget: { maxWeight: number; weigh: (value: V) => number } | undefined = undefined,
): LruMap<K, V> {
  const entries = new Map<K, V>()
  const weigh = budget?.weigh ?? (() => 1)
  const maxWeight = budget?.maxWeight ?? maxEntries
  let weight = 0
  // The most recently used key: reading it again needs no reordering.
  let newest: K | undefined

  function remove(key: K): void {
    const value = entries.get(key)
    if (value === undefined) return
    entries.delete(key)
    weight -= weigh(value)
    if (key === newest) newest = undefined
  }

  return {
    get size() {
      return entries.size
    },
    get weight() {
      return weight
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
    peek(key) {
      return entries.get(key)
    },
    set(key, value) {
      remove(key)
      const heft = weigh(value)
      if (maxEntries <= 0 || heft > maxWeight) return
      entries.set(key, value)
      weight += heft
      newest = key
      while (entries.size > maxEntries || weight > maxWeight) remove(entries.keys().next().value as K)
    },
    delete: remove,
    clear() {
      entries.clear()
      weight = 0
      newest = undefined
    },
  }
}
