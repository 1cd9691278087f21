import type { CachedResponse } from '../cache/cached-response.js'
import {
  cacheEntry,
  findCachedAnswer,
  outcomeResponse,
  type CachedAnswerDeps,
  type CachedOutcome,
} from './cached-answer.js'
import { cacheKey } from '../cache/cache-key.js'
import type { CompiledOperation, CompiledSource } from '../compile/compile-source.js'
import type { OperationContext, OperationParameters } from '../plugin/define-operation.js'
import { buildEnvelope } from './envelope.js'
import { entryOfBody } from '../cache/entry-bytes.js'
import { errorResponse } from '../http/error-response.js'
import { GatewayError } from '../http/gateway-error.js'
import type { GatewayResponse } from '../http/gateway-request.js'
import type { Links } from '../http/links.js'
import { paginate } from './pagination.js'
import { createUpstreamClient, type UpstreamSettings } from '../upstream/upstream-client.js'
import type { Deadline } from '../upstream/deadline.js'
import { UpstreamError } from '../http/upstream-error.js'
import type { UpstreamDefinition } from '../plugin/define-upstream.js'
import type { UpstreamUse } from './provenance.js'
import { createDatasetAccess } from '../dataset/dataset-access.js'
import type { RawUpstreamAnswer, UpstreamAnswerMemo } from '../upstream/upstream-answer-memo.js'
import type { CacheOutcome, GatewayObservers, ObservedRequest } from '../observe/gateway-observer.js'
import type { SourceHealthRecorder } from '../observe/source-health.js'

/** What the operation pipeline needs from the gateway: the cached-answer path, and how to reach upstreams. */
export interface OperationCallDeps extends CachedAnswerDeps {
  /** Settings of one upstream, gateway defaults merged in. */
  upstreamSettings(upstream: UpstreamDefinition): UpstreamSettings
  /** How long an operation's 404 is remembered; 0 to ask the upstream every time. */
  notFoundSeconds: number
  /**
   * Upstream answers shared by calls that make the same upstream call (another page, another
   * `limit`, another filter applied by the operation), each for as long as the asking
   * operation's answers stay fresh; none when absent.
   */
  upstreamAnswers?: UpstreamAnswerMemo
  /** Hears each lookup and upstream call; none when the gateway has no observers. */
  observer?: GatewayObservers
  /** Hears each answer made and each failure to make one, for `/api/v1/health`. */
  health?: Pick<SourceHealthRecorder, 'answered' | 'failed'>
}

/** One call of one operation with validated parameters, and the key its answer is cached under. */
export interface OperationCall {
  source: CompiledSource
  operation: CompiledOperation
  parameters: Record<string, unknown>
  links: Links
  /** {@link operationCacheKey}; the generations of the datasets it reads are added per request. */
  key: string
  /** Set for a call made in process, which reads the envelope as a value: it is kept beside the cached bytes. */
  inProcess?: boolean
  /** The request it answers, as observers see it; only when the gateway has observers. */
  observed?: ObservedRequest | undefined
}

/**
 * The cache key of one call: source, operation, effective parameters and the link base. The
 * same for every request with the same path and query, so it is made once; the loaded
 * generations of the operation's datasets, which change without the request changing, are
 * added to it when the call is answered (see {@link generationKey}).
 */
export function operationCacheKey(
  source: CompiledSource,
  operation: CompiledOperation,
  parameters: Record<string, unknown>,
  links: Links,
): string {
  // A demo source's answers are kept apart, so no real answer is ever read from a played one or the other way round.
  const id = source.definition.demo ? `demo:${source.id}` : source.id
  return cacheKey(links, id, operation.name, JSON.stringify(parameters))
}

/**
 * The entry that remembers an operation's 404 (an organisation number or airport the upstream
 * does not know), so that asking again within `seconds` makes no upstream call.
 */
function notFoundEntry(error: GatewayError, links: Links, seconds: number): CachedResponse {
  return entryOfBody(errorResponse(error, links).body!, seconds, 404)
}

/** Whether an operation's failure is an answer worth remembering: the entity does not exist. */
function isNotFound(error: unknown): error is GatewayError {
  return error instanceof GatewayError && !(error instanceof UpstreamError) && error.status === 404
}

/** The context one call runs with, and what it records of the upstreams the operation reaches. */
function operationContext(
  deps: OperationCallDeps,
  source: CompiledSource,
  operation: CompiledOperation,
  deadline: Deadline,
  observed: ObservedRequest | undefined,
) {
  const used = new Map<string, UpstreamUse>()
  let last: UpstreamDefinition | undefined
  // When the oldest upstream answer reused for this call was fetched; undefined when none was.
  let oldestReused: number | undefined
  // New upstream answers, shared only once the operation has accepted them (see `keepAnswers`).
  const fetched: { key: string; answer: RawUpstreamAnswer; fetchedAt: number }[] = []
  const memo = deps.upstreamAnswers
  const answers = memo
    ? {
        memo,
        maxAgeMs: operation.cacheTtlSeconds * 1000,
        onReuse: (storedAt: number) => void (oldestReused = Math.min(oldestReused ?? storedAt, storedAt)),
        onAnswer: (key: string, answer: RawUpstreamAnswer, fetchedAt: number) =>
          void fetched.push({ key, answer, fetchedAt }),
      }
    : undefined
  const keepAnswers = () => {
    for (const { key, answer, fetchedAt } of fetched) memo?.remember(key, answer, fetchedAt)
  }
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
        {
          deadline,
          ...(answers ? { answers } : {}),
          ...(deps.observer ? { caller: { source: source.id, operation: operation.name, request: observed } } : {}),
        },
      )
    },
    dataset: (dataset) => datasets.open(dataset),
  }
  /** The upstream to name when the deadline passes: the one called last, else the source's first. */
  const blamed = () => last ?? [...source.upstreams.values()][0]!
  return { context, used, blamed, datasets: datasets.used, reusedSince: () => oldestReused, keepAnswers }
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
      reject(
        new UpstreamError(
          upstream,
          'timeout',
          `did not answer within the request's deadline of ${deadline.totalMs} ms`,
        ),
      )
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

async function runOperation(
  deps: OperationCallDeps,
  { source, operation, parameters, links, inProcess, observed }: OperationCall,
  deadline: Deadline,
): Promise<CachedResponse> {
  const { context, used, blamed, datasets, reusedSince, keepAnswers } = operationContext(
    deps,
    source,
    operation,
    deadline,
    observed,
  )
  // A copy, because the parsed parameters are shared by every request with the same query.
  const params = { ...parameters } as OperationParameters<Record<string, never>>
  const result = await withinDeadline(operation.definition.run(params, context), deadline, blamed)
  const { data, pagination } = paginate(result.data, params, operation.paging, result.page)
  const entities = operation.definition.entities?.(data, params) ?? []
  keepAnswers()
  // Made from an upstream answer fetched earlier: dated then, and fresh only as long as that answer is.
  const since = reusedSince()
  const envelope = buildEnvelope({
    source,
    operation,
    parameters,
    result,
    data,
    pagination,
    entities,
    upstreams: [...used.values()],
    links,
    datasets,
    retrievedAt: since,
  })
  const ageSeconds = since === undefined ? 0 : Math.floor((Date.now() - since) / 1000)
  return cacheEntry(envelope, Math.max(1, operation.cacheTtlSeconds - ageSeconds), inProcess)
}

/**
 * Finds the answer to one operation call: a fresh cached answer if there is one; otherwise
 * one upstream call shared by every identical request in flight, cached with its ETag; and
 * when that call fails on the upstream's side, a stale cached answer that says so. The HTTP
 * route answers with {@link outcomeResponse} of it, a call in process reads its value.
 */
export function findOperationAnswer(
  deps: OperationCallDeps,
  call: OperationCall,
): CachedOutcome | Promise<CachedOutcome> {
  const observer = deps.observer
  if (!observer) return findAnswer(deps, call)
  const { observed } = call
  if (observed) {
    observed.source = call.source.id
    observed.operation = call.operation.name
  }
  let outcome: CachedOutcome | Promise<CachedOutcome>
  try {
    outcome = findAnswer(deps, call)
  } catch (error) {
    observeLookup(observer, call, 'miss', false)
    throw error
  }
  if (!(outcome instanceof Promise)) return observeFound(observer, call, outcome)
  return outcome.then(
    (found) => observeFound(observer, call, found),
    (error: unknown) => {
      // Nothing cached could answer, and making the answer failed: a miss all the same.
      observeLookup(observer, call, 'miss', false)
      throw error
    },
  )
}

function observeFound(observer: GatewayObservers, call: OperationCall, found: CachedOutcome): CachedOutcome {
  observeLookup(observer, call, found.kind === 'made' ? 'miss' : found.kind, found.kind === 'made' && found.collapsed)
  return found
}

/** Tells the observers how an answer was found, and the request it answers too. */
function observeLookup(observer: GatewayObservers, call: OperationCall, outcome: CacheOutcome, joined: boolean): void {
  if (call.observed) {
    call.observed.cache = outcome
    call.observed.joined = joined
  }
  observer.cacheLookup({ source: call.source.id, operation: call.operation.name, outcome, joined })
}

function findAnswer(deps: OperationCallDeps, call: OperationCall): CachedOutcome | Promise<CachedOutcome> {
  return findCachedAnswer(
    deps,
    call.key,
    async (deadline) => {
      try {
        const made = await runOperation(deps, call, deadline)
        deps.health?.answered(call.source.id)
        return made
      } catch (error) {
        deps.health?.failed(call.source.id, call.operation.name, error)
        const seconds = Math.min(deps.notFoundSeconds, call.operation.cacheTtlSeconds)
        if (!isNotFound(error) || seconds <= 0) throw error
        return notFoundEntry(error, call.links, seconds)
      }
    },
    call.operation.datasets,
  )
}

/** Answers one operation call over HTTP, as {@link findOperationAnswer} finds it. */
export function callOperation(
  deps: OperationCallDeps,
  call: OperationCall,
): GatewayResponse | Promise<GatewayResponse> {
  const outcome = findOperationAnswer(deps, call)
  return outcome instanceof Promise ? outcome.then(outcomeResponse) : outcomeResponse(outcome)
}
