import type { Gateway } from '@allmenning/core'
import { answerOf, stripMountPath } from '@allmenning/core/adapter'
import type { Middleware } from 'koa'
import { basePathOf, type BasePathOption } from './base-path-option.js'
import { toGatewayRequest } from './to-gateway-request.js'
import { writeGatewayResponse } from './write-gateway-response.js'

/**
 * Options of {@link createKoaMiddleware}.
 *
 * @example
 * const options: KoaMiddlewareOptions = { basePath: '/data' } // serves /data/api/…
 */
export interface KoaMiddlewareOptions extends BasePathOption {}

/**
 * Mounts an Allmenning gateway in a Koa 3 app. Requests under `basePath` that the gateway owns
 * (`/api/…`) are answered; everything else goes on to `next()` untouched, so the middleware
 * can sit before or after @koa/router and @koa/bodyparser.
 *
 * @example
 * import Koa from 'koa'
 * import { createGateway } from '@allmenning/core'
 * import { createKoaMiddleware } from '@allmenning/adapter-koa'
 *
 * const app = new Koa()
 * app.use(createKoaMiddleware(createGateway({ sources }), { basePath: '/data' }))
 * app.listen(3000) // GET /data/api/v1/kilder
 */
export function createKoaMiddleware(gateway: Gateway, options: KoaMiddlewareOptions = {}): Middleware {
  const basePath = basePathOf(options)
  return function allmenningGateway(ctx, next) {
    // ctx.path comes from parseurl and is still percent-encoded, as the contract wants.
    const path = stripMountPath(ctx.request.path, basePath)
    if (path === undefined || !gateway.owns(path)) return next()
    // A cache hit is written at once: no promise of ours for Koa to wait on. Koa sends the
    // answer once the app's middleware has run, as it would after a promise.
    const answer = answerOf(gateway, toGatewayRequest(ctx, path, basePath))
    if (answer instanceof Promise) return answer.then((response) => writeGatewayResponse(ctx, response))
    writeGatewayResponse(ctx, answer)
    return undefined
  }
}
