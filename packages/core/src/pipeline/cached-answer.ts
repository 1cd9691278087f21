import type { BestEffortCache } from '../cache/best-effort-cache.js'
import type { CachedResponse } from '../cache/cached-response.js'
import { freshUntil, isFresh } from '../cache/freshness.js'
import type { HotCache } from '../cache/hot-cache.js'
import type { SingleFlight } from '../cache/single-flight.js'
import type { SharedFlight } from '../cache/shared-flight.js'
import { encodedBody, entryOfBody } from '../cache/entry-bytes.js'
import { weakEtagOfBytes } from '../http/etag.js'
import type { GatewayResponse } from '../http/gateway-request.js'
import { jsonContentType } from '../http/json-response.js'
import { createDeadline, type Deadline } from '../upstream/deadline.js'
import { UpstreamError } from '../http/upstream-error.js'
import type { DatasetStore } from '../plugin/dataset-store.js'
import { generationKey } from '../dataset/dataset-generations.js'
import type { DatasetDefinition } from '../plugin/define-dataset.js'

/** What the cached-answer path needs from the gateway. */
export interface CachedAnswerDeps {
  cache: BestEffortCache
  hot: HotCache
  /** Identical misses in this process share one call; `collapsed` is set when another instance made it. */
  flights: SingleFlight<{ entry: CachedResponse; collapsed: boolean }>
  /** Identical misses across instances share one call, when a Redis is given for it. */
  sharedFlight?: SharedFlight
  /** How long past freshness an answer is kept, to be served if the upstream fails. */
  staleSeconds: number
  /** The time one call may spend on its upstreams, all calls together. */
  deadlineMs: number
  /** Where loaded datasets are read; none when the gateway was given no store. */
  datasets?: DatasetStore
}

/** Makes the answer to cache, within the request's deadline. */
export type Produce = (deadline: Deadline) => Promise<CachedResponse>

/**
 * How a cached answer was found: fresh in a cache (`hit`), made by this call or one it joined
 * (`made`, `forward` saying whether a stale copy was there), or an old copy served because
 * making a new one failed on an upstream's side (`stale`).
 */
export type CachedOutcome =
  | { kind: 'hit'; entry: CachedResponse; now: number }
  | { kind: 'made'; entry: CachedResponse; forward: 'miss' | 'stale'; collapsed: boolean }
  | { kind: 'stale'; entry: CachedResponse; error: UpstreamError; now: number }

const cacheStatusName = 'allmenning'

// The value each entry's body was serialized from, for callers inside the process: kept when
// the entry is made for such a caller, else parsed once when one first reads it, so a hit read
// in process costs no JSON.parse. Beside the entry rather than in it, so the store never holds
// it twice; and only for entries read in process, so answers that only go out over HTTP
// leave no objects behind for the collector to trace.
const entryValues = new WeakMap<CachedResponse, unknown>()

/**
 * A cache entry for a value just made. `keepValue` keeps the value beside it, for an entry
 * made for a caller in process, which reads it as a value.
 */
export function cacheEntry(value: unknown, ttlSeconds: number, keepValue = false): CachedResponse {
  const entry = entryOfBody(JSON.stringify(value), ttlSeconds)
  if (keepValue) entryValues.set(entry, value)
  return entry
}

/**
 * The value an entry's body holds, shared by every caller that reads the entry: treat it as
 * read-only.
 */
export function entryValue(entry: CachedResponse): unknown {
  let value = entryValues.get(entry)
  if (value === undefined) {
    value = JSON.parse(entry.body) as unknown
    entryValues.set(entry, value)
  }
  return value
}

/** A stale entry's value, with `_meta` saying it is stale, since when and why. */
function staleValue(entry: CachedResponse, error: UpstreamError): Record<string, unknown> {
  const value = entryValue(entry) as { _meta: Record<string, unknown> }
  return {
    ...value,
    _meta: {
      ...value._meta,
      stale: true,
      stale_reason: error.message,
      stale_since: new Date(freshUntil(entry)).toISOString(),
    },
  }
}

/** What a caller in process reads from an outcome: the value and the bytes it serializes to. */
export function outcomeValue(outcome: CachedOutcome): { status: 200 | 404; value: unknown; body: string } {
  const { entry } = outcome
  if (outcome.kind === 'stale') {
    const value = staleValue(entry, outcome.error)
    return { status: 200, value, body: JSON.stringify(value) }
  }
  return { status: entry.status === 404 ? 404 : 200, value: entryValue(entry), body: entry.body }
}

/**
 * The HTTP answer of an entry. A cached entry's answer carries its body's bytes, so each hit
 * writes them rather than encoding the text again; a stale answer's body is made for one
 * request and goes without.
 */
function respond(
  entry: CachedResponse,
  cacheStatus: string,
  extra: Record<string, string> = {},
  cached = true,
): GatewayResponse {
  const headers: Record<string, string> = {
    'content-type': jsonContentType,
    'content-length': String(entry.bytes),
    // A remembered "no such entity" is the shared error body, without a validator to revalidate.
    ...(entry.status === 404 ? {} : { etag: entry.etag }),
    'cache-control': `public, max-age=${entry.ttlSeconds}`,
    'cache-status': cacheStatus,
    ...extra,
  }
  const encoded = cached ? encodedBody(entry) : undefined
  return { status: entry.status === 404 ? 404 : 200, headers, body: entry.body, encoded }
}

// A hit's answer only changes when its Age does, once a second, so it is built once per
// entry and second and shared, like every other finished response (adapters only read them).
const hitAnswers = new WeakMap<CachedResponse, { age: number; response: GatewayResponse }>()

function hit(entry: CachedResponse, now: number): GatewayResponse {
  const age = Math.floor((now - entry.storedAt) / 1000)
  const known = hitAnswers.get(entry)
  if (known?.age === age) return known.response
  const response = respond(entry, `${cacheStatusName}; hit; ttl=${entry.ttlSeconds - age}`, { age: String(age) })
  hitAnswers.set(entry, { age, response })
  return response
}

function staleAnswer(entry: CachedResponse, error: UpstreamError, now: number): GatewayResponse {
  const body = JSON.stringify(staleValue(entry, error))
  // Encoded once, for both its length and its ETag.
  const encoded = Buffer.from(body)
  const staleFor = Math.ceil((now - freshUntil(entry)) / 1000)
  return respond(
    { ...entry, body, bytes: encoded.length, etag: weakEtagOfBytes(encoded) },
    `${cacheStatusName}; fwd=stale; fwd-status=${error.status}; ttl=${-staleFor}; detail=upstream-failed`,
    { 'cache-control': 'no-cache', age: String(Math.floor((now - entry.storedAt) / 1000)) },
    false,
  )
}

/** The HTTP answer for an outcome, with its Cache-Status. */
export function outcomeResponse(outcome: CachedOutcome): GatewayResponse {
  switch (outcome.kind) {
    case 'hit':
      return hit(outcome.entry, outcome.now)
    case 'stale':
      return staleAnswer(outcome.entry, outcome.error, outcome.now)
    case 'made': {
      const how = outcome.collapsed ? 'collapsed' : 'stored'
      return respond(outcome.entry, `${cacheStatusName}; fwd=${outcome.forward}; ${how}`)
    }
  }
}

/**
 * Finds the answer under `key`: fresh in the hot cache or the store, or from one run of
 * `produce` shared by every identical request in flight (in this process, and across
 * instances with a shared flight), then cached with its ETag; when `produce` fails on an
 * upstream's side, a stale cached copy. What every answer that depends on upstreams goes
 * through, over HTTP or called in process. An answer that may read `datasets` is kept under
 * the generations loaded when it is asked for, so none made from an earlier generation is
 * served once a new one is loaded.
 */
export function findCachedAnswer(
  deps: CachedAnswerDeps,
  baseKey: string,
  produce: Produce,
  datasets: readonly DatasetDefinition[] = [],
): CachedOutcome | Promise<CachedOutcome> {
  const key = datasets.length === 0 ? baseKey : baseKey + generationKey(deps.datasets, datasets)
  // The hot path: an in-process fresh answer, without a single await.
  const now = Date.now()
  const hot = deps.hot.fresh(key, now)
  return hot ? { kind: 'hit', entry: hot, now } : callThroughStore(deps, key, produce)
}

/**
 * Answers from the cache under `key` as {@link findCachedAnswer} finds it: the HTTP answer,
 * with its Cache-Status, Age and ETag.
 */
export function answerFromCache(
  deps: CachedAnswerDeps,
  key: string,
  produce: Produce,
  datasets: readonly DatasetDefinition[] = [],
): GatewayResponse | Promise<GatewayResponse> {
  const outcome = findCachedAnswer(deps, key, produce, datasets)
  return outcome instanceof Promise ? outcome.then(outcomeResponse) : outcomeResponse(outcome)
}

async function callThroughStore(deps: CachedAnswerDeps, key: string, produce: Produce): Promise<CachedOutcome> {
  // Started before the store is read, so a slow store eats into the request's time too.
  const deadline = createDeadline(deps.deadlineMs)
  const stored = await deps.cache.get(key)
  const now = Date.now()
  if (stored && isFresh(stored, now)) {
    deps.hot.put(key, stored)
    return { kind: 'hit', entry: stored, now }
  }
  // Only a real answer is worth serving stale; a remembered 404 simply expires.
  const cached = stored?.status === 404 ? undefined : stored
  try {
    const { value, shared } = await deps.flights.run(key, () => produceOnce(deps, key, produce, deadline))
    return {
      kind: 'made',
      entry: value.entry,
      forward: cached ? 'stale' : 'miss',
      collapsed: shared || value.collapsed,
    }
  } catch (error) {
    if (cached && error instanceof UpstreamError) return { kind: 'stale', entry: cached, error, now: Date.now() }
    throw error
  }
}

/** How long an entry is kept in the store: a 404 only while fresh, an answer a day longer, to be served stale. */
const retainSeconds = (deps: CachedAnswerDeps, entry: CachedResponse) =>
  entry.status === 404 ? entry.ttlSeconds : entry.ttlSeconds + deps.staleSeconds

/**
 * The one call this process makes for a key: alone, or, with a shared flight, only when no
 * other instance is making it, else the answer that instance stores.
 */
async function produceOnce(deps: CachedAnswerDeps, key: string, produce: Produce, deadline: Deadline) {
  if (!deps.sharedFlight) {
    const entry = await produce(deadline)
    deps.hot.put(key, entry)
    void deps.cache.set(key, entry, retainSeconds(deps, entry))
    return { entry, collapsed: false }
  }
  const { value, shared } = await deps.sharedFlight.run(key, {
    async produce() {
      const entry = await produce(deadline)
      deps.hot.put(key, entry)
      // Awaited: the instances waiting on this call read the answer from the store.
      await deps.cache.set(key, entry, retainSeconds(deps, entry))
      return entry
    },
    async read() {
      const entry = await deps.cache.get(key)
      return entry && isFresh(entry, Date.now()) ? entry : undefined
    },
    signal: deadline.signal,
  })
  if (shared) deps.hot.put(key, value)
  return { entry: value, collapsed: shared }
}
