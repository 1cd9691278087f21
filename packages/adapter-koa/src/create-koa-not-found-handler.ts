import type { Gateway } from '@allmenning/core'
import { notFoundAnswer } from '@allmenning/core/adapter'
import type { Middleware } from 'koa'
import { basePathOf, type BasePathOption } from './base-path-option.js'
import { writeGatewayResponse } from './write-gateway-response.js'

/**
 * Options of {@link createKoaNotFoundHandler}.
 *
 * @example
 * const options: KoaNotFoundHandlerOptions = { basePath: '/data', gateway }
 */
export interface KoaNotFoundHandlerOptions extends BasePathOption {
  /** The gateway, so that its 404 leaves through the gateway's one exit, `onResponse` included. */
  gateway?: Gateway
}

/**
 * A last Koa middleware that answers a path nobody served with the shared 404 body pointing at
 * the API index, instead of Koa's plain-text "Not Found". It runs only when every middleware
 * before it passed the request on, so it never touches an answer (a HEAD included) that the
 * gateway or a route gave. Given the gateway, the answer passes its `onResponse` hook like every
 * other answer of the gateway.
 *
 * @example
 * app.use(createKoaMiddleware(gateway, { basePath: '/data' }))
 * app.use(router.routes())
 * app.use(createKoaNotFoundHandler({ basePath: '/data', gateway }))
 */
export function createKoaNotFoundHandler(options: KoaNotFoundHandlerOptions = {}): Middleware {
  const basePath = basePathOf(options)
  const { gateway } = options
  return function allmenningNotFound(ctx) {
    writeGatewayResponse(
      ctx,
      notFoundAnswer(gateway, { method: ctx.method, path: ctx.path, basePath, headers: ctx.headers }),
    )
  }
}
