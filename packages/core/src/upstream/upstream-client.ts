import type { Dispatcher } from 'undici'
import type { TextDecoder as Decoder } from 'node:util'
import type { Deadline } from './deadline.js'
import type { UpstreamGuard } from './upstream-guard.js'
import { UpstreamError } from '../http/upstream-error.js'
import type { RawUpstreamAnswer, UpstreamAnswerMemo } from './upstream-answer-memo.js'
import { nodeHttpTransport } from './node-http-transport.js'
import { startTimeLimit } from './time-limit.js'
import { undiciTransport } from './undici-transport.js'
import type { TransportAnswer } from './upstream-transport.js'
import type { GatewayObservers, ObservedRequest, ObservedUpstreamCall } from '../observe/gateway-observer.js'
import type {
  QueryValues,
  UpstreamBody,
  UpstreamCallOptions,
  UpstreamClient,
  UpstreamResponse,
} from '../plugin/upstream-calls.js'

export type { QueryValues, UpstreamBody, UpstreamCallOptions, UpstreamClient, UpstreamResponse }

/** How the core reaches one upstream service. */
export interface UpstreamSettings {
  /** Short id, also the `ALLMENNING_UPSTREAM_<ID>` name in the examples: `statnett`, `brreg`. */
  id: string
  /** Human-readable name used in provenance and 502 messages. */
  name: string
  /** Base URL that paths are appended to; the real service by default. */
  baseUrl: string
  /** Per-call time limit in milliseconds. */
  timeoutMs: number
  /** Sent on every call, so upstream operators can tell who is calling. */
  userAgent: string
  /**
   * undici dispatcher (an Agent, a ProxyAgent, a MockAgent in tests): every call goes through
   * undici with it. Without one, calls go through Node's own HTTP client and its global agents.
   */
  dispatcher?: Dispatcher
  /** Largest response body accepted, in bytes. */
  maxBodyBytes: number
  /** The protection shared by every call to this upstream (breaker, bulkhead, retry); none when absent. */
  guard?: UpstreamGuard
  /** Hears every call start and end; none when the gateway has no observers. */
  observer?: GatewayObservers
}

/** What one operation call binds a client to. */
export interface UpstreamCallScope {
  /** The request's deadline: no call outlives it, and each gets at most what is left of it. */
  deadline?: Deadline
  /**
   * Upstream answers shared between calls: a GET answered within `maxAgeMs` is answered from
   * `memo` without calling the upstream again, and `onReuse` hears when the reused answer was
   * fetched (so the gateway's answer is no fresher than its oldest part).
   */
  answers?: {
    memo: UpstreamAnswerMemo
    maxAgeMs: number
    onReuse?(storedAt: number): void
    /**
     * Hears each new answer worth sharing instead of it being remembered at once: the
     * operation may still find a 200 implausible (an empty list where there is always one), and
     * such an answer must not be served to the next call. The gateway remembers them when the
     * operation succeeds.
     */
    onAnswer?(key: string, answer: RawUpstreamAnswer, fetchedAt: number): void
  }
  /** Who calls, for the settings' observer: the operation, and the request it answers when there is one. */
  caller?: { source: string; operation: string; request: ObservedRequest | undefined }
}

/** A text body sent as it is, with its own content type (see {@link UpstreamClient.postText}). */
class TextBody {
  constructor(
    readonly text: string,
    readonly contentType: string,
  ) {}
}

/**
 * The URL of one upstream call: the path appended to the base, undefined query values left out.
 *
 * @example
 * buildUpstreamUrl('https://asrv.avinor.no/', '/XmlFeed/v1.0', { airport: 'OSL', direction: undefined })
 * // 'https://asrv.avinor.no/XmlFeed/v1.0?airport=OSL'
 */
export function buildUpstreamUrl(baseUrl: string, path: string, query?: QueryValues): string {
  const base = baseUrl.endsWith('/') ? baseUrl.slice(0, -1) : baseUrl
  const url = new URL(base + (path.startsWith('/') ? path : `/${path}`))
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) url.searchParams.append(key, String(value))
  }
  return url.toString()
}

/**
 * The URL with every secret replaced by `***`, in its plain and its percent-encoded spelling.
 *
 * @example
 * redactUrl('https://x.example/search?apikey=abc123&lat=60', ['abc123']) // 'https://x.example/search?apikey=***&lat=60'
 */
export function redactUrl(url: string, secrets: readonly string[] = []): string {
  let shown = url
  for (const secret of secrets) {
    if (secret === '') continue
    for (const spelling of new Set([
      secret,
      encodeURIComponent(secret),
      new URLSearchParams({ s: secret }).toString().slice(2),
    ])) {
      shown = shown.split(spelling).join('***')
    }
  }
  return shown
}

function encodeBody(body: UpstreamBody | TextBody): { text: string; contentType: string } {
  if (body instanceof TextBody) return { text: body.text, contentType: body.contentType }
  if (body instanceof URLSearchParams)
    return { text: body.toString(), contentType: 'application/x-www-form-urlencoded' }
  return { text: JSON.stringify(body), contentType: 'application/json' }
}

function charsetOf(contentType: string): string | undefined {
  const match = /charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType)
  return match?.[1]?.toLowerCase()
}

/** An upstream's Retry-After (seconds or an HTTP date) in milliseconds from now; undefined when absent or unreadable. */
function retryAfterMs(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value
  if (!text) return undefined
  if (/^\d+$/.test(text.trim())) return Number(text.trim()) * 1000
  const at = Date.parse(text)
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now())
}

/**
 * Whether a transport's error is a time limit running out. Only the call's time limit aborts an
 * exchange, so an abort is one: Node's client fails with an `AbortError` (`ABORT_ERR`) while
 * connecting or waiting for the head, undici with the signal's own `TimeoutError`. A body cut
 * off by the abort fails with `ECONNRESET` instead, which the callers tell by the signal.
 * undici's own timeouts (a dispatcher's `connect.timeout`, `headersTimeout`, `bodyTimeout`) count too.
 */
function isTimeout(error: unknown): boolean {
  const e = error as { name?: string; code?: string } | null
  return (
    e?.name === 'TimeoutError' ||
    e?.name === 'AbortError' ||
    e?.code === 'ABORT_ERR' ||
    e?.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    e?.code === 'UND_ERR_BODY_TIMEOUT' ||
    e?.code === 'UND_ERR_CONNECT_TIMEOUT'
  )
}

async function readLimited(answer: TransportAnswer, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of answer.body) {
    size += chunk.length
    if (size > limit) {
      await answer.discard()
      return undefined
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

/** Decoding runs at some 100 MB/s; a megabyte at a time keeps each step to a few milliseconds. */
const DECODE_SLICE = 1024 * 1024

/** Decodes a large body a slice at a time, with a turn of the event loop between slices. */
async function decodeInSlices(decoder: Decoder, bytes: Buffer): Promise<string> {
  if (bytes.length <= DECODE_SLICE) return decoder.decode(bytes)
  let text = ''
  for (let offset = 0; offset < bytes.length; offset += DECODE_SLICE) {
    if (offset > 0) await new Promise<void>((resolve) => setImmediate(resolve))
    const end = offset + DECODE_SLICE
    text += decoder.decode(bytes.subarray(offset, end), { stream: end < bytes.length })
  }
  return text
}

/** What makes one GET's answer: the URL, the media type asked for and the caller's own headers. */
function answerKey(url: string, accept: string, headers: Record<string, string> | undefined): string {
  if (!headers) return `${accept} ${url}`
  const names = Object.keys(headers).sort()
  return `${accept} ${url} ${names.map((name) => `${name.toLowerCase()}=${headers[name]}`).join('&')}`
}

/**
 * Creates the client for one upstream; `onCall` hears every URL called through it. The
 * gateway makes one per operation call, bound to the request's deadline; tests make their own
 * against a local fake.
 *
 * @example
 * const client = createUpstreamClient({ id: 'statnett', name: 'Statnett driftsdata', baseUrl, timeoutMs: 2000, userAgent: 'my-app/1.0', maxBodyBytes: 1e6 })
 * const { body, url } = await client.getJson('/PhysicalFlowMap/GetFlow')
 */
export function createUpstreamClient(
  settings: UpstreamSettings,
  onCall?: (url: string) => void,
  scope: UpstreamCallScope = {},
): UpstreamClient {
  const upstream = { id: settings.id, name: settings.name }
  const send = settings.dispatcher ? undiciTransport(settings.dispatcher) : nodeHttpTransport
  const { deadline } = scope

  /** This call's time limit: the upstream's own, or what is left of the request's deadline when that is less. */
  function budget(): { ms: number; reason: string } {
    const left = deadline ? Math.floor(deadline.remaining()) : Infinity
    if (left < settings.timeoutMs) {
      return { ms: Math.max(0, left), reason: `within the request's deadline of ${deadline!.totalMs} ms` }
    }
    return { ms: settings.timeoutMs, reason: `within ${settings.timeoutMs} ms` }
  }

  async function fetchBytes(
    path: string,
    options: UpstreamCallOptions,
    accept: string,
    body?: UpstreamBody | TextBody,
  ) {
    const called = buildUpstreamUrl(settings.baseUrl, path, options.query)
    // What is recorded and shown: the URL with any secret in it masked.
    const url = redactUrl(called, options.redact)
    const limit = budget()
    // Nothing is left of the request's time: calling would only start work nobody waits for.
    if (limit.ms <= 0)
      throw new UpstreamError(upstream, 'timeout', `could not be called ${limit.reason}; earlier calls used it up`)
    // The one time limit of the call, connecting, waiting for the head and reading the body
    // alike: the transports have none of their own. The body is read whole before this returns.
    const time = startTimeLimit(limit.ms, deadline?.signal)
    try {
      onCall?.(url)
      const attempt = () => fetchOnce({ called, url }, options, accept, time.signal, limit, body)
      const guarded = () => (settings.guard ? settings.guard.run(attempt, time.signal) : attempt())
      return settings.observer
        ? await observe(settings.observer, url, body === undefined ? 'GET' : 'POST', guarded)
        : await guarded()
    } finally {
      time.clear()
    }
  }

  /** Runs one call, telling the observer when it starts and how it ended. */
  async function observe(
    observer: GatewayObservers,
    url: string,
    method: 'GET' | 'POST',
    call: () => Promise<RawUpstreamAnswer>,
  ): Promise<RawUpstreamAnswer> {
    const observed = startObserved(observer, url, method)
    try {
      const answer = await call()
      observed.outcome = 'ok'
      observed.status = answer.status
      return answer
    } catch (error) {
      observed.outcome = error instanceof UpstreamError && error.failure === 'timeout' ? 'timeout' : 'error'
      if (error instanceof UpstreamError) {
        observed.failure = error.failure
        if (error.upstreamStatus !== undefined) observed.status = error.upstreamStatus
      }
      throw error
    } finally {
      observed.durationMs = performance.now() - observed.startedAt
      observer.upstreamCallFinished(observed)
    }
  }

  function startObserved(observer: GatewayObservers, url: string, method: 'GET' | 'POST'): ObservedUpstreamCall {
    const { caller } = scope
    const observed: ObservedUpstreamCall = {
      upstream: settings.id,
      name: settings.name,
      method,
      url,
      source: caller?.source ?? '',
      operation: caller?.operation ?? '',
      request: caller?.request,
      startedAt: performance.now(),
    }
    observer.upstreamCallStarted(observed)
    return observed
  }

  /** {@link fetchBytes}, answered from the shared answers when the same GET was answered recently. */
  async function fetchOrReuse(path: string, options: UpstreamCallOptions, accept: string): Promise<RawUpstreamAnswer> {
    const answers = scope.answers
    if (!answers || answers.maxAgeMs <= 0) return fetchBytes(path, options, accept)
    const key = answerKey(buildUpstreamUrl(settings.baseUrl, path, options.query), accept, options.headers)
    const now = Date.now()
    const remembered = answers.memo.fresh(key, answers.maxAgeMs, now)
    if (remembered) {
      // Still recorded: the answer is made from this URL's data, fetched a little earlier.
      onCall?.(remembered.answer.url)
      answers.onReuse?.(remembered.storedAt)
      return remembered.answer
    }
    const answer = await fetchBytes(path, options, accept)
    // Only a success is shared; an accepted error status (a 404 the source answers) is the
    // core's to remember, for the shorter time it keeps "not found".
    if (answer.status >= 200 && answer.status < 300) {
      if (answers.onAnswer) answers.onAnswer(key, answer, now)
      else answers.memo.remember(key, answer, now)
    }
    return answer
  }

  async function fetchOnce(
    { called, url }: { called: string; url: string },
    options: UpstreamCallOptions,
    accept: string,
    signal: AbortSignal,
    limit: { ms: number; reason: string },
    body?: UpstreamBody | TextBody,
  ) {
    let response: TransportAnswer
    const encoded = body === undefined ? undefined : encodeBody(body)
    try {
      response = await send(called, {
        method: encoded ? 'POST' : 'GET',
        headers: {
          'user-agent': settings.userAgent,
          accept,
          ...(encoded ? { 'content-type': encoded.contentType } : {}),
          ...options.headers,
        },
        ...(encoded ? { body: encoded.text } : {}),
        signal,
      })
    } catch (error) {
      if (isTimeout(error) || signal.aborted) {
        throw new UpstreamError(upstream, 'timeout', `did not answer ${limit.reason}`)
      }
      throw new UpstreamError(upstream, 'unavailable', 'could not be reached', undefined, { beforeResponse: true })
    }
    const { status: statusCode } = response
    const contentType = String(response.headers['content-type'] ?? '')
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value)
    }
    const declared = Number(response.headers['content-length'])
    const ok = (statusCode >= 200 && statusCode < 300) || (options.acceptStatus ?? []).includes(statusCode)
    if (!ok) {
      await response.discard()
      const pause = statusCode === 429 || statusCode === 503 ? retryAfterMs(response.headers['retry-after']) : undefined
      const kind = statusCode === 429 ? 'rate limited the gateway' : `answered HTTP ${statusCode}`
      const asked = pause === undefined ? '' : ` and asked for a pause of ${Math.ceil(pause / 1000)} s`
      throw new UpstreamError(
        upstream,
        'status',
        kind + asked,
        statusCode,
        pause === undefined ? {} : { retryAfterMs: pause },
      )
    }
    if (declared > settings.maxBodyBytes) {
      // Said up front: not one byte of it needs reading.
      await response.discard()
      throw new UpstreamError(
        upstream,
        'invalid_response',
        `announced ${declared} bytes, more than the ${settings.maxBodyBytes} accepted`,
      )
    }
    let bytes: Buffer | undefined
    try {
      bytes = await readLimited(response, settings.maxBodyBytes)
    } catch (error) {
      if (isTimeout(error) || signal.aborted) {
        throw new UpstreamError(upstream, 'timeout', `did not finish its answer ${limit.reason}`)
      }
      throw new UpstreamError(upstream, 'unavailable', 'broke off its answer')
    }
    if (bytes === undefined) {
      throw new UpstreamError(
        upstream,
        'invalid_response',
        `sent more than the ${settings.maxBodyBytes} bytes accepted`,
      )
    }
    return { status: statusCode, url, contentType, headers, bytes }
  }

  function parseJson<T>(res: {
    status: number
    url: string
    contentType: string
    headers: Record<string, string>
    bytes: Buffer
  }): UpstreamResponse<T> {
    const text = res.bytes.toString('utf8')
    // An accepted error status (a 404 the source answers itself) may come without JSON.
    const optional = res.status < 200 || res.status >= 300
    const answer = (body: unknown) => ({
      status: res.status,
      url: res.url,
      contentType: res.contentType,
      headers: res.headers,
      body: body as T,
    })
    if (text.trim() === '') {
      if (optional) return answer(undefined)
      throw new UpstreamError(upstream, 'invalid_response', 'answered an empty body where JSON was expected')
    }
    try {
      return answer(JSON.parse(text))
    } catch {
      if (optional) return answer(undefined)
      throw new UpstreamError(upstream, 'invalid_response', 'answered a body that is not valid JSON')
    }
  }

  async function decodeText(
    res: { status: number; url: string; contentType: string; headers: Record<string, string>; bytes: Buffer },
    encodingAsked: string | undefined,
  ): Promise<UpstreamResponse<string>> {
    const encoding = encodingAsked ?? charsetOf(res.contentType) ?? 'utf-8'
    let decoder: Decoder
    try {
      decoder = new TextDecoder(encoding)
    } catch {
      throw new UpstreamError(upstream, 'invalid_response', `answered in an unknown encoding (${encoding})`)
    }
    const text = await decodeInSlices(decoder, res.bytes)
    return { status: res.status, url: res.url, contentType: res.contentType, headers: res.headers, body: text }
  }

  return {
    id: settings.id,
    name: settings.name,
    userAgent: settings.userAgent,
    url: (path, query) => buildUpstreamUrl(settings.baseUrl, path, query),

    getJson<T>(path: string, options: UpstreamCallOptions = {}) {
      return fetchOrReuse(path, options, 'application/json').then((res) => parseJson<T>(res))
    },

    postJson<T>(path: string, body: UpstreamBody, options: UpstreamCallOptions = {}) {
      return fetchBytes(path, options, 'application/json', body).then((res) => parseJson<T>(res))
    },

    async postText(
      path: string,
      body: string,
      options: UpstreamCallOptions & { contentType: string; encoding?: string },
    ) {
      const res = await fetchBytes(path, options, '*/*', new TextBody(body, options.contentType))
      return decodeText(res, options.encoding)
    },

    async getText(path: string, options: UpstreamCallOptions & { encoding?: string } = {}) {
      const res = await fetchOrReuse(path, options, '*/*')
      return decodeText(res, options.encoding)
    },

    async getBytes(path: string, options: UpstreamCallOptions = {}) {
      const res = await fetchOrReuse(path, options, '*/*')
      return { status: res.status, url: res.url, contentType: res.contentType, headers: res.headers, body: res.bytes }
    },
  }
}
