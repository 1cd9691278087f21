import type { Gateway } from '@allmenning/core'
import { normalizeMountPath, stripMountPath } from '@allmenning/core/adapter'
import type { Middleware } from 'koa'
import { toGatewayRequest } from './to-gateway-request.js'
import { writeGatewayResponse } from './write-gateway-response.js'

/**
 * Options of {@link createKoaMiddleware}.
 *
 * @example
 * const options: KoaMiddlewareOptions = { prefix: '/data' } // serves /data/api/…
 */
export interface KoaMiddlewareOptions {
  /**
   * Path the gateway is mounted under (`/data`). Koa and @koa/router never strip a mount
   * prefix from `ctx.path`, so the middleware does it itself, per segment. Default: root.
   */
  prefix?: string
}

/**
 * Mounts an Allmenning gateway in a Koa 3 app. Requests under `prefix` that the gateway owns
 * (`/api/…`) are answered; everything else goes on to `next()` untouched, so the middleware
 * can sit before or after @koa/router and @koa/bodyparser.
 *
 * @example
 * import Koa from 'koa'
 * import { createGateway } from '@allmenning/core'
 * import { createKoaMiddleware } from '@allmenning/adapter-koa'
 *
 * const app = new Koa()
 * app.use(createKoaMiddleware(createGateway({ sources }), { prefix: '/data' }))
 * app.listen(3000) // GET /data/api/v1/kilder
 */
export function createKoaMiddleware(gateway: Gateway, options: KoaMiddlewareOptions = {}): Middleware {
  const prefix = normalizeMountPath(options.prefix)
  return function allmenningGateway(ctx, next) {
    // ctx.path comes from parseurl and is still percent-encoded, as the contract wants.
    const path = stripMountPath(ctx.path, prefix)
    if (path === undefined || !gateway.owns(path)) return next()
    return gateway.handle(toGatewayRequest(ctx, path, prefix)).then((response) => writeGatewayResponse(ctx, response))
  }
}
