import { notFoundResponse } from '@allmenning/core/adapter'
import type { Middleware } from 'koa'
import { basePathOf, type BasePathOption } from './base-path-option.js'
import { writeGatewayResponse } from './write-gateway-response.js'

/**
 * A last Koa middleware that answers a path nobody served with the shared 404 body pointing at
 * the API index, instead of Koa's plain-text "Not Found". It runs only when every middleware
 * before it passed the request on, so it never touches an answer (a HEAD included) that the
 * gateway or a route gave.
 *
 * @example
 * app.use(createKoaMiddleware(gateway, { basePath: '/data' }))
 * app.use(router.routes())
 * app.use(createKoaNotFoundHandler({ basePath: '/data' }))
 */
export function createKoaNotFoundHandler(options: BasePathOption = {}): Middleware {
  const basePath = basePathOf(options)
  return function allmenningNotFound(ctx) {
    writeGatewayResponse(ctx, notFoundResponse(ctx.path, basePath))
  }
}
