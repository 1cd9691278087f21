import type { GatewayRequest } from '@allmenning/core'
import { hasBody, readRequestBody, upperCaseMethod } from '@allmenning/core/adapter'
import type { Context } from 'koa'

/**
 * Translates a Koa context into the core's `GatewayRequest`. `path` is already relative to
 * the mount prefix; `basePath` is that prefix, so links point back through the mount.
 *
 * @example
 * const request = toGatewayRequest(ctx, '/api/v1', '/data')
 * const response = await gateway.handle(request)
 */
export function toGatewayRequest(ctx: Context, path: string, basePath: string): GatewayRequest {
  // Read from ctx.request itself: the ctx.method, ctx.querystring and ctx.ip delegates are a
  // call each on the way there, and this runs for every request.
  const koaRequest = ctx.request
  const method = upperCaseMethod(koaRequest.method)
  const request: GatewayRequest = {
    method,
    path,
    // Koa's querystring is the raw text after '?', so repeated and percent-encoded keys survive.
    query: koaRequest.querystring,
    headers: ctx.req.headers,
    basePath,
    // ctx.ip honours `app.proxy`, so behind a proxy it is the client's own address.
    clientAddress: koaRequest.ip || undefined,
  }
  // GET and HEAD carry no body, so their requests need no reader.
  if (hasBody(method)) request.readBody = () => readBody(ctx)
  return request
}

/**
 * The untouched stream wins: raw bytes are what the core parses best, and @koa/bodyparser
 * leaves the stream unread for content types it does not handle (while still setting `{}`).
 * Only once a parser has drained the stream is its parsed value the best we can offer.
 */
async function readBody(ctx: Context): Promise<unknown> {
  const raw = await readRequestBody(ctx.req)
  if (raw !== undefined) return raw
  return (ctx.request as { body?: unknown }).body
}
