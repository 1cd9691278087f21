import type { BestEffortCache, CachedResponse } from '../cache/best-effort-cache.js'
import type { CompiledOperation, CompiledSource } from '../compile/compile-source.js'
import type { OperationContext, OperationParameters } from '../plugin/define-operation.js'
import { buildEnvelope } from './envelope.js'
import { weakEtag } from '../http/etag.js'
import { errorResponse } from '../http/error-response.js'
import { GatewayError } from '../http/gateway-error.js'
import type { GatewayResponse } from '../http/gateway-request.js'
import type { HotCache } from '../cache/hot-cache.js'
import { jsonContentType } from '../http/json-response.js'
import type { Links } from '../http/links.js'
import { paginate } from './pagination.js'
import type { SingleFlight } from '../cache/single-flight.js'
import type { SharedFlight } from '../cache/shared-flight.js'
import { createUpstreamClient, type UpstreamSettings } from '../upstream/upstream-client.js'
import { createDeadline, type Deadline } from '../upstream/deadline.js'
import { UpstreamError } from '../upstream/upstream-error.js'
import type { UpstreamDefinition } from '../plugin/define-upstream.js'
import type { UpstreamUse } from './provenance.js'
import { createDatasetAccess } from '../dataset/dataset-access.js'
import type { DatasetStore } from '../dataset/dataset-store.js'
import { generationKey } from '../dataset/dataset-generations.js'
import type { DatasetDefinition } from '../plugin/define-dataset.js'

/** What the operation pipeline needs from the gateway. */
export interface OperationCallDeps {
  cache: BestEffortCache
  hot: HotCache
  /** Identical misses in this process share one call; `collapsed` is set when another instance made it. */
  flights: SingleFlight<{ entry: CachedResponse; collapsed: boolean }>
  /** Identical misses across instances share one call, when a Redis is given for it. */
  sharedFlight?: SharedFlight
  /** Settings of one upstream, gateway defaults merged in. */
  upstreamSettings(upstream: UpstreamDefinition): UpstreamSettings
  /** How long past freshness an answer is kept, to be served if the upstream fails. */
  staleSeconds: number
  /** The time one call may spend on its upstreams, all calls together. */
  deadlineMs: number
  /** How long an operation's 404 is remembered; 0 to ask the upstream every time. */
  notFoundSeconds: number
  /** Where loaded datasets are read; none when the gateway was given no store. */
  datasets?: DatasetStore
}

const cacheName = 'allmenning'

/** One call of one operation with validated parameters, and the key its answer is cached under. */
export interface OperationCall {
  source: CompiledSource
  operation: CompiledOperation
  parameters: Record<string, unknown>
  links: Links
  /** {@link operationCacheKey}; the generations of the datasets it reads are added per request. */
  key: string
}

/**
 * The cache key of one call: source, operation, effective parameters and the link base. The
 * same for every request with the same path and query, so it is made once; the loaded
 * generations of the operation's datasets, which change without the request changing, are
 * added to it when the call is answered (see {@link generationKey}).
 */
export function operationCacheKey(source: CompiledSource, operation: CompiledOperation, parameters: Record<string, unknown>, links: Links): string {
  // Links are part of the cached body, so the base they are built on is part of the key.
  return `${cacheName}:v1:${source.id}:${operation.name}:${JSON.stringify(parameters)}:${links.root}`
}

function respond(entry: CachedResponse, cacheStatus: string, extra: Record<string, string> = {}): GatewayResponse {
  if (entry.status === 404) {
    // A remembered "no such entity": the shared error body, without a validator to revalidate.
    return {
      status: 404,
      headers: {
        'content-type': jsonContentType,
        'content-length': String(entry.bytes),
        'cache-control': `public, max-age=${entry.ttlSeconds}`,
        'cache-status': cacheStatus,
        ...extra,
      },
      body: entry.body,
    }
  }
  return {
    status: 200,
    headers: {
      'content-type': jsonContentType,
      'content-length': String(entry.bytes),
      etag: entry.etag,
      'cache-control': `public, max-age=${entry.ttlSeconds}`,
      'cache-status': cacheStatus,
      ...extra,
    },
    body: entry.body,
  }
}

/**
 * The entry that remembers an operation's 404 (an organisation number or airport the upstream
 * does not know), so that asking again within `seconds` makes no upstream call.
 */
function notFoundEntry(error: GatewayError, links: Links, seconds: number): CachedResponse {
  const body = errorResponse(error, links).body!
  return { status: 404, body, bytes: Buffer.byteLength(body), etag: weakEtag(body), storedAt: Date.now(), ttlSeconds: seconds }
}

/** Whether an operation's failure is an answer worth remembering: the entity does not exist. */
function isNotFound(error: unknown): error is GatewayError {
  return error instanceof GatewayError && !(error instanceof UpstreamError) && error.status === 404
}

// A hit's answer only changes when its Age does, once a second, so it is built once per
// entry and second and shared, like every other finished response (adapters only read them).
const hitAnswers = new WeakMap<CachedResponse, { age: number; response: GatewayResponse }>()

function hit(entry: CachedResponse, now: number): GatewayResponse {
  const age = Math.floor((now - entry.storedAt) / 1000)
  const known = hitAnswers.get(entry)
  if (known?.age === age) return known.response
  const response = respond(entry, `${cacheName}; hit; ttl=${entry.ttlSeconds - age}`, { age: String(age) })
  hitAnswers.set(entry, { age, response })
  return response
}

/** The context one call runs with, and what it records of the upstreams the operation reaches. */
function operationContext(deps: OperationCallDeps, source: CompiledSource, operation: CompiledOperation, deadline: Deadline) {
  const used = new Map<string, UpstreamUse>()
  let last: UpstreamDefinition | undefined
  const datasets = createDatasetAccess(deps.datasets, operation.datasets, `${source.id}.${operation.name}`)
  const context: OperationContext = {
    source: source.id,
    operation: operation.name,
    upstream(handle) {
      const upstream = source.upstreams.get(handle.id)
      if (!upstream) {
        throw new TypeError(`Source ${source.id} calls upstream ${handle.id} without declaring it in its upstreams`)
      }
      let use = used.get(upstream.id)
      if (!use) {
        use = { upstream, urls: [] }
        used.set(upstream.id, use)
      }
      const urls = use.urls
      return createUpstreamClient(
        deps.upstreamSettings(upstream),
        (url) => {
          last = upstream
          urls.push(url)
        },
        { deadline },
      )
    },
    dataset: (dataset) => datasets.open(dataset),
  }
  /** The upstream to name when the deadline passes: the one called last, else the source's first. */
  const blamed = () => last ?? [...source.upstreams.values()][0]!
  return { context, used, blamed, datasets: datasets.used }
}

/**
 * Settles with the operation, or with a timeout when the deadline passes first. The upstream
 * calls abort on their own at the deadline; this also covers an operation waiting on work it
 * does not own, such as a load another request started.
 */
function withinDeadline<T>(work: Promise<T>, deadline: Deadline, blamed: () => UpstreamDefinition): Promise<T> {
  if (deadline.signal.aborted) return work
  return new Promise<T>((resolve, reject) => {
    const expire = () => {
      const upstream = blamed()
      reject(new UpstreamError(upstream, 'timeout', `did not answer within the request's deadline of ${deadline.totalMs} ms`))
    }
    deadline.signal.addEventListener('abort', expire, { once: true })
    work.then(
      (value) => {
        deadline.signal.removeEventListener('abort', expire)
        resolve(value)
      },
      (error: unknown) => {
        deadline.signal.removeEventListener('abort', expire)
        reject(error)
      },
    )
  })
}

async function runOperation(deps: OperationCallDeps, { source, operation, parameters, links }: OperationCall, deadline: Deadline): Promise<CachedResponse> {
  const { context, used, blamed, datasets } = operationContext(deps, source, operation, deadline)
  // A copy, because the parsed parameters are shared by every request with the same query.
  const params = { ...parameters } as OperationParameters<Record<string, never>>
  const result = await withinDeadline(operation.definition.run(params, context), deadline, blamed)
  const { data, pagination } = paginate(result.data, params, operation.paging, result.page)
  const entities = operation.definition.entities?.(data, params) ?? []
  const envelope = buildEnvelope({ source, operation, parameters, result, data, pagination, entities, upstreams: [...used.values()], links, datasets })
  return cacheEntry(envelope, operation.cacheTtlSeconds)
}

function staleAnswer(entry: CachedResponse, error: UpstreamError, now: number): GatewayResponse {
  const envelope = JSON.parse(entry.body) as { _meta: Record<string, unknown> }
  const freshUntil = entry.storedAt + entry.ttlSeconds * 1000
  envelope._meta = {
    ...envelope._meta,
    stale: true,
    stale_reason: error.message,
    stale_since: new Date(freshUntil).toISOString(),
  }
  const body = JSON.stringify(envelope)
  const staleFor = Math.ceil((now - freshUntil) / 1000)
  return respond(
    { ...entry, body, bytes: Buffer.byteLength(body), etag: weakEtag(body) },
    `${cacheName}; fwd=stale; fwd-status=${error.status}; ttl=${-staleFor}; detail=upstream-failed`,
    { 'cache-control': 'no-cache', age: String(Math.floor((now - entry.storedAt) / 1000)) },
  )
}

/**
 * Answers one operation call: a fresh cached answer if there is one; otherwise one
 * upstream call shared by every identical request in flight, cached with its ETag; and
 * when that call fails on the upstream's side, a stale cached answer that says so.
 */
export function callOperation(deps: OperationCallDeps, call: OperationCall): GatewayResponse | Promise<GatewayResponse> {
  return answerFromCache(
    deps,
    call.key,
    async (deadline) => {
      try {
        return await runOperation(deps, call, deadline)
      } catch (error) {
        const seconds = Math.min(deps.notFoundSeconds, call.operation.cacheTtlSeconds)
        if (!isNotFound(error) || seconds <= 0) throw error
        return notFoundEntry(error, call.links, seconds)
      }
    },
    call.operation.datasets,
  )
}

/**
 * Answers from the cache under `key`, or from one run of `produce` shared by every identical
 * request in flight, cached with its ETag; when `produce` fails on an upstream's side, from a
 * stale cached answer that says so. What every answer that depends on upstreams goes through.
 * An answer that may read `datasets` is kept under the generations loaded when it is asked
 * for, so none made from an earlier generation is served once a new one is loaded.
 */
export function answerFromCache(
  deps: OperationCallDeps,
  operationKey: string,
  produce: (deadline: Deadline) => Promise<CachedResponse>,
  datasets: readonly DatasetDefinition[] = [],
): GatewayResponse | Promise<GatewayResponse> {
  const key = datasets.length === 0 ? operationKey : operationKey + generationKey(deps.datasets, datasets)
  // The hot path: an in-process fresh answer, without a single await.
  const now = Date.now()
  const hot = deps.hot.fresh(key, now)
  return hot ? hit(hot, now) : callThroughStore(deps, key, produce)
}

/** A cache entry for a body just made. */
export function cacheEntry(value: unknown, ttlSeconds: number): CachedResponse {
  const body = JSON.stringify(value)
  return { body, bytes: Buffer.byteLength(body), etag: weakEtag(body), storedAt: Date.now(), ttlSeconds }
}

async function callThroughStore(deps: OperationCallDeps, key: string, produce: (deadline: Deadline) => Promise<CachedResponse>): Promise<GatewayResponse> {
  // Started before the store is read, so a slow store eats into the request's time too.
  const deadline = createDeadline(deps.deadlineMs)
  const stored = await deps.cache.get(key)
  const now = Date.now()
  if (stored && now - stored.storedAt < stored.ttlSeconds * 1000) {
    deps.hot.put(key, stored)
    return hit(stored, now)
  }
  // Only a real answer is worth serving stale; a remembered 404 simply expires.
  const cached = stored?.status === 404 ? undefined : stored
  try {
    const { value, shared } = await deps.flights.run(key, () => produceOnce(deps, key, produce, deadline))
    const forward = cached ? 'stale' : 'miss'
    return respond(value.entry, shared || value.collapsed ? `${cacheName}; fwd=${forward}; collapsed` : `${cacheName}; fwd=${forward}; stored`)
  } catch (error) {
    if (cached && error instanceof UpstreamError) return staleAnswer(cached, error, Date.now())
    throw error
  }
}

/** How long an entry is kept in the store: a 404 only while fresh, an answer a day longer, to be served stale. */
const retainSeconds = (deps: OperationCallDeps, entry: CachedResponse) => (entry.status === 404 ? entry.ttlSeconds : entry.ttlSeconds + deps.staleSeconds)

/**
 * The one call this process makes for a key: alone, or, with a shared flight, only when no
 * other instance is making it, else the answer that instance stores.
 */
async function produceOnce(deps: OperationCallDeps, key: string, produce: (deadline: Deadline) => Promise<CachedResponse>, deadline: Deadline) {
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
      return entry && Date.now() - entry.storedAt < entry.ttlSeconds * 1000 ? entry : undefined
    },
    signal: deadline.signal,
  })
  if (shared) deps.hot.put(key, value)
  return { entry: value, collapsed: shared }
}
