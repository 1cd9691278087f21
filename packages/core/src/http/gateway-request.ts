import type { GatewayError } from './gateway-error.js'

/**
 * A normalized HTTP request, as every adapter hands it to the core.
 *
 * @example
 * const res = await gateway.handle({
 *   method: 'GET',
 *   path: '/api/v1/kilder/statnett/get_physical_flow',
 *   query: 'area=NO1&limit=5',
 *   headers: { 'if-none-match': 'W/"abc"' },
 * })
 */
export interface GatewayRequest {
  /** Upper-case HTTP method. */
  method: string
  /** Path relative to where the gateway is mounted, still percent-encoded, without the query. */
  path: string
  /** The raw query string without the leading `?`; repeated keys survive as written. */
  query: string
  /**
   * Header names in lower case. A repeated header is an array or its values joined with
   * ", " (RFC 9110 5.3), as Node's `req.headers` gives them.
   */
  headers: Record<string, string | string[] | undefined>
  /**
   * Path prefix the gateway is mounted under (`/data`), used for links when no
   * `publicBaseUrl` is configured. Empty or absent when mounted at the root.
   */
  basePath?: string
  /**
   * The client's address as the host knows it (Express `req.ip` honouring `trust proxy`, Koa
   * `ctx.ip`, Lambda's source IP): what rate limits count against unless a `clientKey` is given.
   */
  clientAddress?: string
  /**
   * Reads the request body, only when a route needs one. Returns raw bytes or text
   * (parsed by the core) or a value a body parser already produced (used as is).
   */
  readBody?: () => Promise<string | Uint8Array | unknown>
}

/**
 * What the core answers. `body` is already serialized (or null for 304 and HEAD), so an
 * adapter only writes bytes, and a cache hit is never serialized twice.
 */
export interface GatewayResponse {
  status: number
  headers: Record<string, string>
  body: string | null
  /**
   * The body's UTF-8 bytes, where the gateway holds them already (a cached answer): an adapter
   * writes these instead of encoding `body` again on every hit. They are the body's only while
   * `encoded.text` is `body`: read them through `bodyBytes` (`@allmenning/core/adapter`), which
   * gives nothing once a copy's body was changed, by an `onResponse` hook say. Shared by every
   * answer of that text: read them, never change them.
   */
  encoded?: EncodedBody | undefined
}

/** A body's text and its UTF-8 bytes, made once and shared by every answer that sends that text. */
export interface EncodedBody {
  text: string
  bytes: Uint8Array
}

/**
 * What a gateway's doors other than its routes know of a request: an error the host app raised
 * before the gateway saw it, or a path nobody served. Adapters give what they have; a method
 * not given is taken as GET, a query as empty, headers as none.
 *
 * @example
 * const request: HostRequest = { method: 'POST', path: '/api/v1/feedback', basePath: '/data', headers: { 'content-type': 'application/json' } }
 */
export type HostRequest = Pick<GatewayRequest, 'path'> &
  Partial<Pick<GatewayRequest, 'method' | 'headers' | 'basePath' | 'query'>>

/**
 * The host's last word on every answer a client gets (`GatewayOptions.onResponse`): given a
 * copy of the answer and the request, it changes the copy or returns another answer; returning
 * nothing keeps the copy as it is. The request of a refusal Node makes before reading one (a
 * broken request line or header, headers too large, too slow; see `answerServerRefusals`) is
 * empty: method and path `''`, no headers.
 *
 * @example
 * const cors: ResponseHook = (response) => {
 *   response.headers['access-control-allow-origin'] = '*'
 * }
 */
export type ResponseHook = (response: GatewayResponse, request: GatewayRequest) => GatewayResponse | void

/**
 * What an adapter needs from a gateway. `createGateway` returns one.
 *
 * @example
 * if (!gateway.owns(path)) return next()
 * const res = await gateway.handle(request)
 */
export interface Gateway {
  /** Answers one request. Never rejects: failures come back as JSON error responses. */
  handle(request: GatewayRequest): Promise<GatewayResponse>
  /**
   * The same answer as `handle`, given at once when the gateway has it without waiting (a
   * cache hit, a static route, a refusal), else as a promise: an adapter that writes the answer
   * itself saves the promises on every such request. Never throws,
   * never rejects. `createGateway`'s gateway has it; an adapter given a gateway without it
   * calls `handle` (`answerOf` does either).
   */
  answer?(request: GatewayRequest): GatewayResponse | Promise<GatewayResponse>
  /**
   * Whether a mount-relative path belongs to the gateway: `/api` and everything under it,
   * and, with an extension such as MCP on, `/mcp` and `/{source}/mcp` for the sources it serves. Adapters pass
   * other paths on to the host app.
   */
  owns(path: string): boolean
  /**
   * Answers an error the host app raised before the gateway saw a request (a body parser's
   * malformed JSON, a body over its limit): for a path under an extension's endpoint (MCP) in
   * that protocol's shape, else in the shared error body, as `hostErrorResponse` does.
   * Adapters' error handlers call it when given the gateway. The answer has passed the host's
   * `onResponse` hook, as every answer of the gateway does.
   */
  answerHostError?(error: unknown, request: HostRequest): GatewayResponse
  /**
   * Answers a path the host app has no route for, outside the gateway or not, with the shared
   * 404 body pointing at the API index, through the host's `onResponse` hook. Adapters' last
   * handlers call it when given the gateway (`notFoundResponse` without one).
   */
  answerNotFound?(request: HostRequest): GatewayResponse
  /**
   * Answers what the host's Node server refuses before any app sees it (`answerServerRefusals`
   * calls it when given the gateway): `refusal` in the shared error body, through the host's
   * `onResponse` hook. A refusal of a request Node has read (an `Expect` other than
   * `100-continue`, a `CONNECT`) comes with that request: its method, its path from the
   * server's root (the authority for a `CONNECT`), its query and headers. One Node could not
   * read (a broken request line or header, headers too large, too slow) has none, and comes
   * with an empty method, an empty path and no headers.
   */
  answerRefusal?(refusal: GatewayError, request: HostRequest): GatewayResponse
}
