import { GatewayError } from './gateway-error.js'
import type { GatewayResponse } from './gateway-request.js'
import { jsonResponse } from './json-response.js'
import { openApiPath, type Links } from './links.js'
import { UpstreamError } from './upstream-error.js'

/**
 * The one error body every status shares:
 * `{ error: { status, code, message, details, upstream? }, _meta, _links }`.
 * Anything that is not a GatewayError is an internal error whose message is not shown.
 */
export function errorResponse(error: unknown, links: Pick<Links, 'apiRoot'>): GatewayResponse {
  const known = error instanceof GatewayError
  const status = known ? error.status : 500
  const body = {
    error: {
      status,
      code: known ? error.code : 'internal_error',
      message: known ? error.message : 'The gateway failed unexpectedly; the failure has been logged.',
      details: known ? error.details : [],
      ...(error instanceof UpstreamError ? { upstream: error.upstream.id } : {}),
    },
    _meta: { retrieved_at: new Date().toISOString(), language: 'en' },
    _links: { api_index: `${links.apiRoot}/`, openapi: `${links.apiRoot}${openApiPath}` },
  }
  return jsonResponse(status, body, { 'cache-control': 'no-store', ...(known ? error.headers : {}) })
}
