import { errorResponse } from './error-response.js'
import { GatewayError } from './gateway-error.js'
import type { Gateway, GatewayResponse, HostRequest } from './gateway-request.js'
import { linkBase } from './links.js'

/** What a host's body parser or router puts on the errors it throws (body-parser, http-errors, Koa). */
interface HostError {
  status?: unknown
  statusCode?: unknown
  type?: unknown
  code?: unknown
}

function statusOf(error: unknown): number | undefined {
  const e = error as HostError | null
  // A body that does not inflate in its Content-Encoding: Express's parser says 400 itself,
  // Koa's (co-body) passes zlib's own error on without a status: Z_DATA_ERROR and the like
  // for gzip and deflate, ERR__ERROR_FORMAT_... (Brotli's decoder errors) for br.
  if (typeof e?.code === 'string' && /^(Z_[A-Z_]+|ERR__ERROR_[A-Z0-9_]+)$/.test(e.code)) return 400
  const status = typeof e?.status === 'number' ? e.status : typeof e?.statusCode === 'number' ? e.statusCode : undefined
  return status !== undefined && status >= 400 && status <= 599 ? status : undefined
}

/**
 * What an error the host app raised before the gateway saw the request stands for, as a
 * GatewayError with a message of our own (never the parser's, which may quote the body): a
 * body parser's malformed JSON (400 `invalid_body`), an unknown charset or encoding (415), a
 * body too large (413); any other 4xx keeps its status; anything else is a 500 whose cause is
 * not shown.
 *
 * @example
 * hostRefusal(Object.assign(new SyntaxError('Unexpected token'), { status: 400 })).code // 'invalid_body'
 */
export function hostRefusal(error: unknown): GatewayError {
  const status = statusOf(error)
  const type = String((error as HostError | null)?.type ?? '')
  if (status === undefined || status >= 500) return new GatewayError(500, 'internal_error', 'Internal error')
  const known: Record<number, () => GatewayError> = {
    400: () =>
      new GatewayError(
        400,
        'invalid_body',
        'The request body could not be read: it is not well-formed for its Content-Type',
      ),
    413: () => new GatewayError(413, 'body_too_large', 'The request body is larger than this server accepts'),
    415: () =>
      new GatewayError(
        415,
        'unsupported_media_type',
        type === 'encoding.unsupported'
          ? 'The request body is in a Content-Encoding this server does not accept'
          : 'The request body is in a charset or media type this server does not accept',
      ),
  }
  return (
    known[status]?.() ?? new GatewayError(status, 'request_rejected', `The request was rejected with HTTP ${status}`)
  )
}

/**
 * The shared error body for an error the host app raised before the gateway saw the request
 * ({@link hostRefusal}). Adapters offer it as an error handler; for a path under an
 * extension's endpoint (MCP), `gateway.answerHostError` answers in that protocol's shape.
 *
 * @example
 * const res = hostErrorResponse(Object.assign(new SyntaxError('Unexpected token'), { status: 400, type: 'entity.parse.failed' }))
 * res.status // 400, body { error: { code: 'invalid_body', ... } }
 */
export function hostErrorResponse(error: unknown, basePath = ''): GatewayResponse {
  const refusal = hostRefusal(error)
  const links = linkBase(undefined, basePath)
  // A 500 is the shared internal error, whose cause is never shown.
  return errorResponse(refusal.status >= 500 ? new Error('host error') : refusal, links)
}

/**
 * The shared 404 body for a path outside the gateway that the host app has no route for either,
 * so that a client never gets an HTML page. It points at the API index.
 *
 * @example
 * app.use((req, res) => { const r = notFoundResponse(req.path); res.status(r.status).set(r.headers).end(r.body) })
 */
export function notFoundResponse(path: string, basePath = ''): GatewayResponse {
  const links = linkBase(undefined, basePath)
  return errorResponse(
    new GatewayError(
      404,
      'route_not_found',
      `No route ${JSON.stringify(path.slice(0, 100))}; the API index is at ${links.apiRoot}/`,
    ),
    links,
  )
}

/**
 * The doors a gateway has for what the host app or its server answers itself
 * (`Gateway.answerHostError`, `Gateway.answerNotFound`, `Gateway.answerRefusal`): optional,
 * since a gateway an adapter is given may be one of its user's own making without them.
 */
export type HostDoors = Pick<Gateway, 'answerHostError' | 'answerNotFound' | 'answerRefusal'>

/**
 * A host app's error answered through the gateway's door when it has one (its `onResponse`
 * hook, an MCP endpoint's JSON-RPC shape), else in the shared error body: what every adapter's
 * error handler answers.
 *
 * @example
 * const response = hostErrorAnswer(gateway, new SyntaxError('Unexpected end of JSON input'), { method: 'POST', path: '/mcp', basePath: '/data' })
 */
export function hostErrorAnswer(gateway: HostDoors | undefined, error: unknown, request: HostRequest): GatewayResponse {
  return gateway?.answerHostError ? gateway.answerHostError(error, request) : hostErrorResponse(error, request.basePath)
}

/**
 * A path nobody served answered through the gateway's door when it has one (its `onResponse`
 * hook), else with the shared 404 body: what every adapter's last handler answers.
 *
 * @example
 * const response = notFoundAnswer(gateway, { method: 'GET', path: '/nowhere' })
 */
export function notFoundAnswer(gateway: HostDoors | undefined, request: HostRequest): GatewayResponse {
  return gateway?.answerNotFound ? gateway.answerNotFound(request) : notFoundResponse(request.path, request.basePath)
}
