import { createLruMap, type LruMap } from '../util/lru-map.js'

/** Limits of a {@link createMemoryCacheStore}: whichever is reached first evicts. */
export interface MemoryCacheStoreOptions {
  /** The most the held keys and values may weigh, in bytes; 32 MiB by default. */
  maxBytes?: number
  /** The most entries held; 100,000 by default. */
  maxEntries?: number
}

/** A Keyv storage adapter held in this process: the Map-like methods Keyv calls. */
export interface MemoryCacheStore {
  get(key: string): unknown
  set(key: string, value: unknown): boolean
  delete(key: string): boolean
  clear(): void
  has(key: string): boolean
  /** Entries held now. */
  readonly size: number
  /** What they weigh now, in bytes (see {@link createMemoryCacheStore}). */
  readonly bytes: number
}

interface Held {
  value: unknown
  bytes: number
}

// What a Map entry costs beside its key and value: the entry, the record around the value.
const entryOverheadBytes = 96

/**
 * Weighs a value the way V8 holds it at most: two bytes a UTF-16 code unit. Keyv hands its
 * store serialized strings; anything else (a store used without Keyv's serializer) is weighed
 * by its JSON text, once, when it is stored.
 */
function weigh(key: string, value: unknown): number {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '')
  return 2 * (key.length + text.length) + entryOverheadBytes
}

/**
 * A bounded in-memory store for Keyv: the least recently used entries go first once the
 * store holds `maxBytes` or `maxEntries`. A plain `new Keyv()` keeps every key it is ever
 * given (expired entries leave only when read again), so a gateway asked for new URLs all
 * day grows until the process dies; this is the gateway's default store.
 *
 * @example
 * const cache = new Keyv({ store: createMemoryCacheStore({ maxBytes: 128 * 1024 * 1024 }) })
 * const gateway = createGateway({ sources, cache })
 */
export function createMemoryCacheStore(options: MemoryCacheStoreOptions = {}): MemoryCacheStore {
  const maxBytes = options.maxBytes ?? 32 * 1024 * 1024
  const maxEntries = options.maxEntries ?? 100_000
  if (!(maxBytes > 0) || !(maxEntries > 0))
    throw new RangeError('createMemoryCacheStore: maxBytes and maxEntries must be above 0')
  const make = (): LruMap<string, Held> =>
    createLruMap<string, Held>(maxEntries, { maxWeight: maxBytes, weigh: (held) => held.bytes })
  let entries = make()
  return {
    get: (key) => entries.get(key)?.value,
    set(key, value) {
      entries.set(key, { value, bytes: weigh(key, value) })
      return true
    },
    delete(key) {
      const had = entries.get(key) !== undefined
      entries.delete(key)
      return had
    },
    clear() {
      entries = make()
    },
    has: (key) => entries.get(key) !== undefined,
    get size() {
      return entries.size
    },
    get bytes() {
      return entries.weight
    },
  }
}
