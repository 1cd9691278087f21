import { GatewayError, type ErrorCode } from './gateway-error.js'

/**
 * Why an upstream call failed; `not_configured` when it needs a key or setting the deployment
 * has not given; `resting` when the gateway is not calling it for a while (it kept failing, or
 * asked for a pause with Retry-After); `busy` when too many calls to it are already waiting.
 */
export type UpstreamFailure =
  | 'unavailable'
  | 'timeout'
  | 'status'
  | 'invalid_response'
  | 'not_configured'
  | 'resting'
  | 'busy'

const codes: Record<UpstreamFailure, ErrorCode> = {
  unavailable: 'upstream_unavailable',
  timeout: 'upstream_timeout',
  status: 'upstream_error',
  invalid_response: 'upstream_invalid_response',
  not_configured: 'upstream_not_configured',
  resting: 'upstream_resting',
  busy: 'upstream_busy',
}

/** More about one failure, for the core's protection of the upstream. */
export interface UpstreamFailureDetail {
  /** No answer began: the connection failed or broke before a status line. Safe to retry a GET. */
  beforeResponse?: boolean
  /** How long the upstream asked to be left alone (its Retry-After), in milliseconds. */
  retryAfterMs?: number
  /** Seconds a client should wait before trying again; sent as our own Retry-After. */
  retryAfterSeconds?: number
  /** Of a `not_configured` failure: the variable or setting the deployment must give (see {@link upstreamNotConfigured}). */
  configure?: string
}

/**
 * An upstream service failed: it could not be reached, was too slow, answered an error
 * status or sent a body that does not parse. Always a 502 naming the upstream, unless a
 * stale cached answer can be served instead.
 *
 * @example
 * throw new UpstreamError({ id: 'avinor', name: 'Avinor flight data' }, 'invalid_response',
 *   'answered an HTML page instead of XML')
 */
export class UpstreamError extends GatewayError {
  readonly upstream: { id: string; name: string }
  readonly failure: UpstreamFailure
  readonly upstreamStatus: number | undefined
  readonly detail: UpstreamFailureDetail

  constructor(
    upstream: { id: string; name: string },
    failure: UpstreamFailure,
    reason: string,
    upstreamStatus?: number,
    detail: UpstreamFailureDetail = {},
  ) {
    const headers: Record<string, string> =
      detail.retryAfterSeconds === undefined ? {} : { 'retry-after': String(detail.retryAfterSeconds) }
    super(502, codes[failure], `Upstream ${upstream.name} (${upstream.id}) ${reason}`, {
      headers,
      ...(detail.configure === undefined ? {} : { configure: detail.configure }),
    })
    this.name = 'UpstreamError'
    this.upstream = { id: upstream.id, name: upstream.name }
    this.failure = failure
    this.upstreamStatus = upstreamStatus
    this.detail = detail
  }
}

/**
 * The 502 `upstream_not_configured` of an upstream that needs a key or setting the deployment
 * has not given, carrying the variable to set as `configure`, so a place bundle can name it
 * without reading the message.
 *
 * @example
 * if (!apiKey) throw upstreamNotConfigured(client, 'ALLMENNING_NOBIL_API_KEY')
 * // 502: Upstream NOBIL (nobil) needs an API key: set ALLMENNING_NOBIL_API_KEY
 */
export function upstreamNotConfigured(
  upstream: { id: string; name: string },
  configure: string,
  reason = `needs an API key: set ${configure}`,
): UpstreamError {
  return new UpstreamError(upstream, 'not_configured', reason, undefined, { configure })
}
