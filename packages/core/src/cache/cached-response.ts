// The entry every cache layer keeps (the hot cache, the shared store, single and shared flight), in
// a file of its own: the store and the check of what it reads back both need it.

/** A cached, already serialized response. */
export interface CachedResponse {
  /** 404 for a remembered "no such entity"; a 200 answer otherwise (absent in entries stored before). */
  status?: 200 | 404
  body: string
  /** Byte length of `body`, measured once when it was stored. */
  bytes: number
  etag: string
  /** Epoch milliseconds when the upstream answered. */
  storedAt: number
  /** Seconds the entry counts as fresh. */
  ttlSeconds: number
}
