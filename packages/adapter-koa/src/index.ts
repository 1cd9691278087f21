export { createKoaMiddleware, type KoaMiddlewareOptions } from './create-koa-middleware.js'
export { createKoaErrorHandler, type KoaErrorHandlerOptions } from './create-koa-error-handler.js'
export { createKoaNotFoundHandler, type KoaNotFoundHandlerOptions } from './create-koa-not-found-handler.js'
