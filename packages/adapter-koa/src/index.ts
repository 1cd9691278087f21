export { createKoaMiddleware, type KoaMiddlewareOptions } from './create-koa-middleware.js'
