import type { GatewayResponse } from '@allmenning/core'
import type { Context } from 'koa'

/** Statuses that never carry content; Koa strips entity headers for these on its own. */
const EMPTY_STATUSES = new Set([204, 205, 304])

/**
 * Writes a `GatewayResponse` through Koa's own setters (never `ctx.res`), so the rest of the
 * app's middleware still sees and may decorate the response.
 *
 * @example
 * writeGatewayResponse(ctx, await gateway.handle(request))
 */
export function writeGatewayResponse(ctx: Context, response: GatewayResponse): void {
  // Status first: Koa's body setter picks 200 or 204 by itself unless the status is explicit.
  ctx.status = response.status
  // ctx.set writes the header verbatim; `ctx.type = …` would append a charset the core did
  // not choose. With Content-Type already present, Koa's body setter leaves it alone. One
  // call with the whole object: Koa 3 builds arrays on every call, so a call per header costs
  // several times what one call for all of them does.
  ctx.set(response.headers)

  if (response.body !== null) {
    ctx.body = response.body
    return
  }
  if (EMPTY_STATUSES.has(response.status)) {
    // Koa answers 304 with no content and drops Content-Type/Content-Length itself (RFC 9110
    // allows either); ETag and Cache-Control stay.
    ctx.body = null
    return
  }
  if (ctx.method === 'HEAD') {
    // Leave the body unset: `ctx.body = null` turns the status into 204 (or, for JSON, into
    // the text "null"), and `''` overwrites the GET's Content-Length with 0. Koa's HEAD path
    // ends the response without touching what we set.
    return
  }
  // An answer with nothing to say, such as the 202 to an MCP notification: an empty body.
  // Koa's string setter would call it text/plain; the gateway named no type, so neither do we.
  ctx.body = ''
  if (response.headers['content-type'] === undefined) ctx.remove('Content-Type')
}
