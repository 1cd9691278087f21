import { GatewayError, type ErrorCode } from '../http/gateway-error.js'

/** Why an upstream call failed; `not_configured` when it needs a key or setting the deployment has not given. */
export type UpstreamFailure = 'unavailable' | 'timeout' | 'status' | 'invalid_response' | 'not_configured'

const codes: Record<UpstreamFailure, ErrorCode> = {
  unavailable: 'upstream_unavailable',
  timeout: 'upstream_timeout',
  status: 'upstream_error',
  invalid_response: 'upstream_invalid_response',
  not_configured: 'upstream_not_configured',
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

  constructor(
    upstream: { id: string; name: string },
    failure: UpstreamFailure,
    reason: string,
    upstreamStatus?: number,
  ) {
    super(502, codes[failure], `Upstream ${upstream.name} (${upstream.id}) ${reason}`)
    this.name = 'UpstreamError'
    this.upstream = { id: upstream.id, name: upstream.name }
    this.failure = failure
    this.upstreamStatus = upstreamStatus
  }
}
