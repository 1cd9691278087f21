import type { Gateway, GatewayRequest, GatewayResponse } from '@allmenning/core'
import {
  answerOf,
  bodyBytes,
  hasBody,
  hostErrorAnswer,
  notFoundAnswer,
  readRequestBody,
  upperCaseMethod,
} from '@allmenning/core/adapter'
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express'

/**
 * Translates an Express request into the gateway's plain request. `req.path` is already
 * relative to the mount; the query is taken raw from `req.url` so repeated and
 * percent-encoded keys reach the core exactly as sent.
 *
 * @example
 * app.use('/data', async (req, res) => {
 *   const answer = await gateway.handle(toGatewayRequest(req)) // what createExpressMiddleware does
 * })
 */
export function toGatewayRequest(req: Request): GatewayRequest {
  const url = req.url
  const mark = url.indexOf('?')
  const method = upperCaseMethod(req.method)
  const request: GatewayRequest = {
    method,
    path: req.path,
    query: mark === -1 ? '' : url.slice(mark + 1),
    headers: req.headers,
    basePath: req.baseUrl,
    clientAddress: clientAddressOf(req),
  }
  // A body parser mounted before us (express.json) leaves its result in req.body and
  // has drained the stream; reading the stream again would wait forever.
  if (hasBody(method))
    request.readBody = () => (req.body !== undefined ? Promise.resolve(req.body) : readRequestBody(req))
  return request
}

/**
 * The client's address as `req.ip` works it out, honouring the app's `trust proxy` setting
 * so that behind a proxy it is the real client. With no X-Forwarded-For there is nothing to
 * trust or not, and `req.ip` is the socket's address: read there, without the header's
 * parsing `req.ip` does on every request.
 */
function clientAddressOf(req: Request): string | undefined {
  return (req.headers['x-forwarded-for'] === undefined ? req.socket.remoteAddress : req.ip) || undefined
}

/**
 * Express 5 middleware serving the gateway under wherever it is mounted. Paths outside
 * `/api` are passed on with `next()`, so the host app's own routes keep working.
 *
 * @example
 * import express from 'express'
 * import { createExpressMiddleware } from '@allmenning/adapter-express'
 *
 * const app = express()
 * app.use('/data', createExpressMiddleware(gateway))
 */
export function createExpressMiddleware(gateway: Gateway): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!gateway.owns(req.path)) return next()
    const answer = answerOf(gateway, toGatewayRequest(req))
    // A cache hit, there at once, is written in a microtask rather than through promises: after
    // Node's parser has read the rest of what arrived with the request, as after a promise. A
    // broken remainder (a chunk that is not one, a second request that is not HTTP) is then
    // refused before the answer is out, not written after an answer that closed the connection.
    if (!(answer instanceof Promise)) queueMicrotask(() => writeOrPass(res, answer, next))
    else answer.then((response) => writeOrPass(res, response, next), next)
  }
}

/**
 * Writes the answer; a failure to (a header value Node refuses, set by a gateway of the host's
 * own making) goes to the app's error handler, never to an uncaught exception or an unhandled
 * rejection.
 */
function writeOrPass(res: Response, response: GatewayResponse, next: NextFunction): void {
  try {
    write(res, response)
  } catch (error) {
    next(error)
  }
}

/**
 * Writes the gateway's answer, headers in one writeHead: Express's `res.set` goes header by
 * header and looks the Content-Type up in its MIME table, where the core already chose every
 * value. Headers the host's middleware set before stay, unless the gateway sets the same one.
 * end() rather than send(): send() would add an ETag of its own and answer 304s itself. A
 * cached answer's body goes as the bytes the gateway holds, not encoded again.
 */
function write(res: Response, response: GatewayResponse): void {
  res.writeHead(response.status, response.headers)
  if (response.body === null) res.end()
  else res.end(bodyBytes(response) ?? response.body)
}

/** What the gateway's other doors are told of an Express request. */
const hostRequest = (req: Request) => ({
  method: req.method,
  path: req.path,
  basePath: req.baseUrl,
  headers: req.headers,
})

/**
 * Options of {@link createExpressErrorHandler}.
 *
 * @example
 * const options: ExpressErrorHandlerOptions = { gateway, onError: (error) => logger.error(error) }
 */
export interface ExpressErrorHandlerOptions {
  /** Hears errors answered as a 500 (a fault of the app, not of the request); their cause is not shown. */
  onError?: (error: unknown) => void
  /**
   * The gateway, so that a request to one of its extensions' endpoints (MCP) is answered in
   * that protocol's shape: a malformed JSON body at `/mcp` is a JSON-RPC -32700, not the
   * shared error body. Mount the handler where the gateway is mounted.
   */
  gateway?: Gateway
}

/**
 * An Express error handler that answers in the gateway's shared error body instead of
 * Express's HTML page (which shows a stack trace outside production): a body parser's
 * malformed JSON is a 400 `invalid_body`, an unknown charset or encoding a 415, a body too
 * large a 413, anything else a 500 whose cause is not shown. Given the gateway, a path under
 * an MCP endpoint gets the same refusals as JSON-RPC errors. Add it last.
 *
 * @example
 * app.use(express.json())
 * app.use(createExpressMiddleware(gateway))
 * app.use(createExpressNotFoundHandler())
 * app.use(createExpressErrorHandler({ gateway, onError: (error) => logger.error(error) }))
 */
export function createExpressErrorHandler(options: ExpressErrorHandlerOptions = {}): ErrorRequestHandler {
  const { gateway } = options
  return (error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error)
    const response = hostErrorAnswer(gateway, error, hostRequest(req))
    if (response.status >= 500) options.onError?.(error)
    write(res, response)
  }
}

/**
 * Options of {@link createExpressNotFoundHandler}.
 *
 * @example
 * const options: ExpressNotFoundHandlerOptions = { gateway }
 */
export interface ExpressNotFoundHandlerOptions {
  /** The gateway, so that its 404 leaves through the gateway's one exit, `onResponse` included. */
  gateway?: Gateway
}

/**
 * A last Express handler that answers a path nobody served with the shared 404 body, not an
 * HTML page. Add it after your own routes and the gateway. Given the gateway, the answer passes
 * its `onResponse` hook like every other answer of the gateway.
 *
 * @example
 * app.use(createExpressNotFoundHandler({ gateway }))
 */
export function createExpressNotFoundHandler(options: ExpressNotFoundHandlerOptions = {}): RequestHandler {
  const { gateway } = options
  return (req: Request, res: Response) => write(res, notFoundAnswer(gateway, hostRequest(req)))
}
