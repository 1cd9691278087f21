import {
  createGateway,
  type ErrorKind,
  type Gateway,
  type GatewayOptions,
  type GatewayRequest,
  type UpstreamOverride,
} from '@allmenning/core'
import type { SourceDefinition } from '@allmenning/core/source'

/** A gateway answer with its body parsed. */
export interface TestResponse {
  status: number
  headers: Record<string, string>
  body: string | null
  /** The body parsed as JSON; null for an empty body (304, HEAD). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any
}

/** Query parameters as the raw string a client sends, or as values to encode. */
export type TestQuery = string | Record<string, string | number | boolean | undefined>

/** Where a test points one upstream: a running fake (anything with a `baseUrl`) or an override. */
export type TestUpstream = UpstreamOverride | { baseUrl: string; timeoutMs?: number }

export interface TestGatewayOptions extends Omit<GatewayOptions, 'sources' | 'upstreams'> {
  sources: SourceDefinition | SourceDefinition[]
  /** The upstreams to point at local fakes, by upstream id: `{ met: fake }`. */
  upstreams?: Record<string, TestUpstream>
}

/** A gateway for tests: every `Gateway` method, plus calls that parse the answer, plus what went wrong inside. */
export interface TestGateway extends Gateway {
  /** GET a mount-relative path: `get('/api/v1/kilder/weather')`. */
  get(path: string, query?: TestQuery, headers?: GatewayRequest['headers']): Promise<TestResponse>
  /** GET one operation: `call('weather', 'get_forecast', { lat: 59.91, lon: 10.75 })`. */
  call(source: string, operation: string, query?: TestQuery): Promise<TestResponse>
  /** Every unexpected error the gateway heard (its `onError`), oldest first; empty when all went as it should. */
  readonly errors: { error: unknown; kind: ErrorKind }[]
}

/** Encodes a query the way a client would; booleans as `true`/`false`. */
export function encodeTestQuery(query: TestQuery | undefined): string {
  if (query === undefined) return ''
  if (typeof query === 'string') return query.startsWith('?') ? query.slice(1) : query
  return Object.entries(query)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    .join('&')
}

function parse(body: string | null): unknown {
  if (body === null || body === '') return null
  try {
    return JSON.parse(body)
  } catch {
    return undefined
  }
}

/**
 * Creates a gateway for tests over the given sources, with their upstreams pointed at local
 * fakes. It keeps quiet: unexpected errors are collected in `errors` (assert it is empty)
 * instead of printed, feedback goes nowhere, and upstream calls time out after 2 s unless told
 * otherwise, so a hanging fake fails a test instead of stalling it.
 *
 * @example
 * const met = await startFakeUpstream({ '/compact': () => fakeReply.json(forecast) })
 * const gateway = createTestGateway({ sources: weather(), upstreams: { met } })
 * const { status, json } = await gateway.call('weather', 'get_forecast', { lat: 59.91, lon: 10.75 })
 * expect(status).toBe(200)
 * expect(gateway.errors).toEqual([])
 */
export function createTestGateway(options: TestGatewayOptions): TestGateway {
  const { sources, upstreams, ...rest } = options
  const errors: { error: unknown; kind: ErrorKind }[] = []
  const overrides: Record<string, UpstreamOverride> = {}
  // Only what an override may say: a fake passed as is brings its own methods along.
  for (const [id, upstream] of Object.entries(upstreams ?? {})) {
    overrides[id] = {
      ...(upstream.baseUrl !== undefined ? { baseUrl: upstream.baseUrl } : {}),
      ...(upstream.timeoutMs !== undefined ? { timeoutMs: upstream.timeoutMs } : {}),
    }
  }
  const gateway = createGateway({
    onError: (error, kind) => void errors.push({ error, kind }),
    onFeedback: () => {},
    ...rest,
    upstream: { timeoutMs: 2000, userAgent: 'allmenning-test', ...rest.upstream },
    sources: Array.isArray(sources) ? sources : [sources],
    upstreams: overrides,
  })
  const get = async (
    path: string,
    query?: TestQuery,
    headers: GatewayRequest['headers'] = {},
  ): Promise<TestResponse> => {
    const res = await gateway.handle({ method: 'GET', path, query: encodeTestQuery(query), headers })
    return { ...res, json: parse(res.body) }
  }
  return {
    handle: (request) => gateway.handle(request),
    owns: (path) => gateway.owns(path),
    get,
    call: (source, operation, query) =>
      get(`/api/v1/kilder/${encodeURIComponent(source)}/${encodeURIComponent(operation)}`, query),
    errors,
  }
}
