import type { Gateway } from '@allmenning/core'
import { hostErrorAnswer, hostErrorResponse, stripMountPath } from '@allmenning/core/adapter'
import type { Middleware } from 'koa'
import { basePathOf, type BasePathOption } from './base-path-option.js'
import { writeGatewayResponse } from './write-gateway-response.js'

/**
 * Options of {@link createKoaErrorHandler}.
 *
 * @example
 * const options: KoaErrorHandlerOptions = { basePath: '/data', onError: (error) => logger.error(error) }
 */
export interface KoaErrorHandlerOptions extends BasePathOption {
  /** Hears errors answered as a 500 (a fault of the app, not of the request); their cause is not shown. */
  onError?: (error: unknown) => void
  /**
   * The gateway, so that a request to one of its extensions' endpoints (MCP) under `basePath`
   * is answered in that protocol's shape: a malformed JSON body at `/mcp` is a JSON-RPC
   * -32700, not the shared error body.
   */
  gateway?: Gateway
}

/**
 * Koa middleware that answers an error thrown by anything after it in the shared error body,
 * instead of Koa's plain-text page: a body parser's malformed JSON is a 400 `invalid_body`, an
 * unknown charset or encoding a 415, a body too large a 413, anything else a 500 whose cause
 * is not shown. Given the gateway, a path under an MCP endpoint gets the same refusals as
 * JSON-RPC errors. Add it before the middleware whose errors it answers (a body parser, your
 * routes). The gateway's own middleware answers its own errors, so it may come first, as in the
 * example app: the requests it answers then pass one layer of Koa's chain fewer.
 *
 * @example
 * app.use(createKoaMiddleware(gateway))
 * app.use(createKoaErrorHandler({ gateway, onError: (error) => logger.error(error) }))
 * app.use(bodyParser())
 * app.use(router.routes())
 * app.use(createKoaNotFoundHandler())
 */
export function createKoaErrorHandler(options: KoaErrorHandlerOptions = {}): Middleware {
  // Where the gateway is mounted, so the error body links to its API index.
  const basePath = basePathOf(options)
  const { gateway } = options
  // Not an async function with try/await: that costs every request, failing or not, a promise
  // and a turn of its own; a rejection handler costs only the ones that fail.
  return function allmenningHostErrors(ctx, next) {
    return next().then(undefined, (error: unknown) => {
      // Once the head is out there is nothing left to answer with; Koa ends the response.
      if (ctx.headerSent) throw error
      // Through the gateway's one exit (its onResponse hook) wherever it can answer: a path under
      // its mount, or one outside that it would not take for its own (an endpoint's refusal
      // shape, MCP's, belongs only to that endpoint).
      const below = stripMountPath(ctx.path, basePath)
      const path = below ?? (gateway?.owns(ctx.path) ? undefined : ctx.path)
      const response =
        path === undefined
          ? hostErrorResponse(error, basePath)
          : hostErrorAnswer(gateway, error, { method: ctx.method, path, basePath, headers: ctx.headers })
      if (response.status >= 500) options.onError?.(error)
      // What the failed handler set belongs to an answer that is not given (Koa's own error
      // page drops it too).
      for (const name of Object.keys(ctx.response.headers)) ctx.remove(name)
      writeGatewayResponse(ctx, response)
      // A parser that failed (a body that does not inflate, one too large) may have left the
      // body half read, and the connection then cannot carry the client's next request; read
      // off the rest, as Express's body-parser does.
      if (!ctx.req.complete) ctx.req.resume()
    })
  }
}
