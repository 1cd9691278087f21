/** Every machine-readable `error.code` the gateway emits. docs/api.md lists them. */
export type ErrorCode =
  | 'invalid_parameter'
  | 'unknown_parameter'
  | 'repeated_parameter'
  | 'invalid_query_encoding'
  | 'invalid_path_encoding'
  | 'query_too_long'
  | 'invalid_body'
  | 'body_too_large'
  | 'request_rejected'
  | 'route_not_found'
  | 'source_not_found'
  | 'operation_not_found'
  | 'entity_not_found'
  | 'method_not_allowed'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'internal_error'
  | 'upstream_unavailable'
  | 'upstream_timeout'
  | 'upstream_error'
  | 'upstream_invalid_response'
  | 'upstream_not_configured'
  | 'upstream_resting'
  | 'upstream_busy'
  | 'dataset_not_loaded'

/** One broken rule of one input, as listed in `error.details`. */
export interface ProblemDetail {
  /** The query parameter, path segment or body field at fault. */
  parameter: string
  /** Human-readable statement of the rule that was broken. */
  problem: string
  /** Stable rule name: `required`, `type`, `min_value`, `max_length`, `enum`, ... */
  rule: string
}

/**
 * An error with an HTTP status and a stable code. Operations throw it for answers such
 * as "no such company"; the core turns it into the shared error body.
 *
 * @example
 * throw new GatewayError(404, 'entity_not_found', 'No entity with organisation number 123456785')
 */
export class GatewayError extends Error {
  readonly status: number
  readonly code: ErrorCode
  readonly details: ProblemDetail[]
  readonly headers: Record<string, string>
  /**
   * Set when the deployment, not the caller or the upstream, is what is missing: the variable
   * or setting to give (`ALLMENNING_NOBIL_API_KEY`), or the command that loads a dataset. A
   * place bundle reports such a field as `not_configured` with this as its `configure`.
   */
  readonly configure: string | undefined

  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    options: { details?: ProblemDetail[]; headers?: Record<string, string>; configure?: string } = {},
  ) {
    super(message)
    this.name = 'GatewayError'
    this.status = status
    this.code = code
    this.details = options.details ?? []
    this.headers = options.headers ?? {}
    this.configure = options.configure
  }
}
