import { createLruMap } from '../util/lru-map.js'

/** One upstream answer as it came off the wire: what every read of the client is made from. */
export interface RawUpstreamAnswer {
  status: number
  /** The URL called, secrets masked. */
  url: string
  contentType: string
  headers: Record<string, string>
  bytes: Buffer
}

/** A remembered answer and when it was fetched (epoch ms). */
export interface RememberedAnswer {
  answer: RawUpstreamAnswer
  storedAt: number
}

/**
 * Upstream GET answers kept in process for as long as the operation that asked for them
 * stays fresh, so that gateway calls differing only in what the gateway does with an answer
 * (another page of the same list, another `limit`, a filter applied after the call) make no
 * new upstream call. Keyed by what makes the call: method, URL and the headers that shape the
 * answer. Bounded by bytes, least recently used forgotten first.
 */
export interface UpstreamAnswerMemo {
  /** The answer remembered under `key` if it is younger than `maxAgeMs`. */
  fresh(key: string, maxAgeMs: number, now: number): RememberedAnswer | undefined
  remember(key: string, answer: RawUpstreamAnswer, now: number): void
  /** Bytes held, for tests and metrics. */
  readonly bytes: number
}

/** Bookkeeping per entry beyond its body: URL, headers, map slots. */
const ENTRY_OVERHEAD_BYTES = 1024

/**
 * Creates the memo; `maxBytes` bounds the bodies held (32 MiB by default in a gateway).
 *
 * @example
 * const memo = createUpstreamAnswerMemo(8 * 1024 * 1024)
 * const answer = { status: 200, url: 'https://x.example/flow', contentType: 'application/json', headers: {}, bytes: Buffer.from('[]') }
 * memo.remember('GET application/json https://x.example/flow', answer, Date.now())
 * memo.fresh('GET application/json https://x.example/flow', 60_000, Date.now()) // { answer, storedAt }
 */
export function createUpstreamAnswerMemo(maxBytes: number): UpstreamAnswerMemo {
  const entries = createLruMap<string, RememberedAnswer>(Number.MAX_SAFE_INTEGER, {
    maxWeight: maxBytes,
    weigh: (entry) => entry.answer.bytes.length + ENTRY_OVERHEAD_BYTES,
  })
  return {
    fresh(key, maxAgeMs, now) {
      const entry = entries.get(key)
      if (!entry) return undefined
      if (now - entry.storedAt < maxAgeMs) return entry
      // Too old for this caller; a caller with a longer freshness may still use it, so it stays
      // until a fresh answer replaces it or the budget pushes it out.
      return undefined
    },
    remember(key, answer, now) {
      entries.set(key, { answer, storedAt: now })
    },
    get bytes() {
      return entries.weight
    },
  }
}
