import { normalizeMountPath, notFoundResponse } from '@allmenning/core/adapter'
import type { Middleware } from 'koa'
import { writeGatewayResponse } from './write-gateway-response.js'

/**
 * A last Koa middleware that answers a path nobody served with the shared 404 body pointing at
 * the API index, instead of Koa's plain-text "Not Found". It runs only when every middleware
 * before it passed the request on, so it never touches an answer (a HEAD included) that the
 * gateway or a route gave.
 *
 * @example
 * app.use(createKoaMiddleware(gateway, { prefix: '/data' }))
 * app.use(router.routes())
 * app.use(createKoaNotFoundHandler({ prefix: '/data' }))
 */
export function createKoaNotFoundHandler(options: { prefix?: string } = {}): Middleware {
  const prefix = normalizeMountPath(options.prefix)
  return function allmenningNotFound(ctx) {
    writeGatewayResponse(ctx, notFoundResponse(ctx.path, prefix))
  }
}
