import type { Gateway, GatewayRequest, GatewayResponse, HostRequest } from '@allmenning/core'
import { hasBody, hostErrorAnswer, normalizeMountPath, notFoundAnswer, stripMountPath } from '@allmenning/core/adapter'
import { requestHeaders } from './request-headers.js'
import { splitRequestUrl } from './split-request-url.js'
import { toWebResponse } from './to-web-response.js'
import { webBodyReader } from './web-body-reader.js'

/**
 * Options of {@link createFetchHandler}. `Context` is what the runtime passes after the
 * request (Deno's `info`, Bun's `server`, a Hono context you hand on), given to `clientAddress`.
 *
 * @example
 * const options: FetchHandlerOptions = { basePath: '/data', onError: (error) => logger.error(error) }
 */
export interface FetchHandlerOptions<Context extends unknown[] = []> {
  /** Where the gateway is served: `/data` answers `/data/api/v1/…`. Default: the root. */
  basePath?: string
  /**
   * The client's address, which a Web `Request` does not carry: rate limits count against
   * it. Deno passes it as `info.remoteAddr`, Bun as `server.requestIP(request)`; behind a
   * proxy you trust, read `X-Forwarded-For`. Without an address (and without the gateway's
   * `rateLimit.clientKey`), a request is not rate limited.
   */
  clientAddress?: (request: Request, ...context: Context) => string | undefined
  /** Hears an error thrown on the way (never the gateway's own answers), answered as the shared 500. */
  onError?: (error: unknown) => void
}

/**
 * What {@link createFetchHandler} returns: a Web `Request` in, a `Response` out; it never
 * rejects. Extra arguments are the runtime's, handed to `clientAddress`.
 *
 * @example
 * const handler: FetchHandler = createFetchHandler(gateway)
 * const answer = await handler(new Request('https://data.example.no/api/v1/kilder'))
 */
export type FetchHandler<Context extends unknown[] = []> = (request: Request, ...context: Context) => Promise<Response>

/**
 * Serves an Allmenning gateway as a Web-standard fetch handler, for Next.js route handlers,
 * Hono, Bun, Deno and any runtime that speaks `Request` and `Response`. The handler is the
 * whole server: there is no host app to pass a path on to, so a path outside `basePath`, or
 * one below it the gateway does not own, gets the gateway's own JSON 404.
 *
 * @example
 * import { Keyv } from 'keyv'
 * import { createGateway } from '@allmenning/core'
 * import { createFetchHandler } from '@allmenning/adapter-fetch'
 *
 * const handler = createFetchHandler(createGateway({ sources, cache: new Keyv() }), { basePath: '/data' })
 * const answer = await handler(new Request('https://data.example.no/data/api/v1/kilder'))
 * answer.status // 200
 */
export function createFetchHandler<Context extends unknown[] = []>(
  gateway: Gateway,
  options: FetchHandlerOptions<Context> = {},
): FetchHandler<Context> {
  const basePath = normalizeMountPath(options.basePath)
  return async function handleFetch(request: Request, ...context: Context): Promise<Response> {
    const method = request.method.toUpperCase()
    let path = '/'
    try {
      const url = splitRequestUrl(request.url)
      const below = stripMountPath(url.path, basePath)
      if (below === undefined) {
        // Outside the base path: still the gateway's one exit, its onResponse hook included.
        const outside = { method, path: url.path, basePath, headers: requestHeaders(request.headers) }
        return toWebResponse(notFoundAnswer(gateway, outside), method)
      }
      path = below
      const address = options.clientAddress?.(request, ...context)
      const gatewayRequest: GatewayRequest = {
        method,
        path,
        query: url.query,
        headers: requestHeaders(request.headers),
        basePath,
        ...(address ? { clientAddress: address } : {}),
        // GET and HEAD carry no body, so their requests need no reader.
        ...(hasBody(method) ? { readBody: webBodyReader(request) } : {}),
      }
      // Below the base path, the gateway answers every path: its own 404 for those it does not own.
      return toWebResponse(await gateway.handle(gatewayRequest), method)
    } catch (error) {
      return toWebResponse(internalError(gateway, error, options.onError, { method, path, basePath }), method)
    }
  }
}

/** The shared 500 (a JSON-RPC error under an MCP endpoint), whose cause is never shown. */
function internalError(
  gateway: Gateway,
  error: unknown,
  onError: ((error: unknown) => void) | undefined,
  request: HostRequest & { basePath: string },
): GatewayResponse {
  try {
    onError?.(error)
  } catch {
    // A failing listener must not turn the 500 into an unhandled rejection.
  }
  // A neutral error: a status the thrown value happens to carry is not the client's fault.
  const fault = new Error('fetch handler failed')
  return hostErrorAnswer(gateway, fault, request)
}
