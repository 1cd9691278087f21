import type { GatewayResponse } from '@allmenning/core'
import { bodyBytes } from '@allmenning/core/adapter'
import type { Context } from 'koa'

/** Koa sends a Buffer as bytes, any other Uint8Array as JSON: the core's are Buffers, a view otherwise. */
const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)

/** Statuses that never carry content; Koa strips entity headers for these on its own. */
const EMPTY_STATUSES = new Set([204, 205, 304])

/**
 * Writes a `GatewayResponse` through Koa's own status and body setters (its headers on the
 * Node response, as Koa's own `ctx.set` does), so the rest of the app's middleware still sees
 * and may decorate the response: Koa sends it once they have all run.
 *
 * @example
 * writeGatewayResponse(ctx, await gateway.handle(request))
 */
export function writeGatewayResponse(ctx: Context, response: GatewayResponse): void {
  // Through ctx.response itself, not the ctx.status and ctx.body aliases: every alias Koa's
  // context delegates is one shared function that looks its property up by name, a slow
  // store (well under a µs, but twice on every request) where the setter called directly is not.
  const koaResponse = ctx.response
  // Status first: Koa's body setter picks 200 or 204 by itself unless the status is explicit.
  koaResponse.status = response.status
  // Each header set on the Node response itself, which is all `ctx.set` ends in: Koa 3's set
  // first copies the object into two arrays of pairs and normalizes every value, where the
  // core's are strings already. The rest of the app still reads and changes them through
  // ctx.response as usual. (`ctx.type = …` would append a charset the core did not choose;
  // with Content-Type present, Koa's body setter leaves it alone.)
  if (!koaResponse.headerSent) {
    const res = ctx.res
    const headers = response.headers
    // With a body, Content-Length is Koa's: its body setter writes it from the same bytes, so
    // setting it here as well would check and store the header twice.
    const withBody = response.body !== null
    for (const name in headers) if (!withBody || name !== 'content-length') res.setHeader(name, headers[name]!)
  }

  if (response.body !== null) {
    // A cached answer's body as the bytes the gateway holds (Koa then neither measures nor
    // encodes it), shared by every hit: the app's middleware may replace ctx.body, not change
    // those bytes.
    const bytes = bodyBytes(response)
    koaResponse.body = bytes === undefined ? response.body : asBuffer(bytes)
    return
  }
  if (EMPTY_STATUSES.has(response.status)) {
    // Koa answers 304 with no content and drops Content-Type/Content-Length itself (RFC 9110
    // allows either); ETag and Cache-Control stay.
    koaResponse.body = null
    return
  }
  if (ctx.request.method === 'HEAD') {
    // Leave the body unset: `ctx.body = null` turns the status into 204 (or, for JSON, into
    // the text "null"), and `''` overwrites the GET's Content-Length with 0. Koa's HEAD path
    // ends the response without touching what we set.
    return
  }
  // An answer with nothing to say, such as the 202 to an MCP notification: an empty body.
  // Koa's string setter would call it text/plain; the gateway named no type, so neither do we.
  koaResponse.body = ''
  if (response.headers['content-type'] === undefined) ctx.remove('Content-Type')
}
