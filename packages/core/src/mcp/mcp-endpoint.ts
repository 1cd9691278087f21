import type { RouteCall } from '../http/define-route.js'
import { GatewayError } from '../http/gateway-error.js'
import type { GatewayRequest, GatewayResponse } from '../http/gateway-request.js'
import { bodyTooLarge, maxRequestBodyBytes } from '../http/read-request-body.js'
import { classifyMessage, rpcError, rpcErrorCodes, type RpcMessage } from './json-rpc.js'
import { accepted, framingFor, refuse, reply } from './mcp-framing.js'
import { answerRequest, type CallGateway, type McpServer } from './mcp-server.js'
import { createMcpServers, type McpServerParts } from './mcp-servers.js'
import type { ToolTarget } from './mcp-tool.js'
import { allowsBatches, defaultProtocolVersion, isSupportedProtocolVersion, supportedProtocolVersions } from './protocol-version.js'
import type { RateVerdict } from '../limit/rate-limit.js'

/** How the MCP endpoints behave; `mcp: true` takes every default. */
export interface McpOptions {
  /**
   * Origins (`https://app.example.no`) whose browser pages may call the MCP endpoints. A
   * request whose `Origin` header names another is refused with 403, as the transport asks
   * of servers to stop DNS rebinding. Left out, any origin may: the data is public and read
   * only, and the gateway sends no CORS headers, so a page on another origin cannot read it.
   */
  allowedOrigins?: string[]
}

/** What the MCP endpoints need from the gateway. */
export interface McpEndpointParts extends McpServerParts {
  /** The gateway's own `handle`: every tool call is a GET sent through it. */
  handle(request: GatewayRequest): Promise<GatewayResponse>
  options: McpOptions
  /** Hears a failure inside the MCP code itself (answered as -32603). */
  onError(error: unknown): void
  /**
   * Counts a request against the client's rate limit, when limits are on. Tool calls are
   * counted by the GETs they send through `handle`; this counts a POST that calls no tool.
   */
  count?(request: GatewayRequest): Promise<RateVerdict> | undefined
}

/** Answers one POST to `/mcp` (no source) or `/{source}/mcp`. */
export type McpEndpoint = (call: RouteCall, sourceId: string | undefined) => Promise<GatewayResponse>

/** The most messages one batch may hold; a batch is answered in one response, so it is bounded. */
export const maxBatchSize = 100

const headerValue = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : value)

type Parsed = { ok: true; value: unknown } | { ok: false; response: GatewayResponse }

/** The body as JSON: raw bytes or text checked for media type and size, or what a host app's parser already made. */
function parseBody(body: unknown, contentType: string | undefined): Parsed {
  if (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array)) return { ok: true, value: body }
  if (contentType !== undefined && !/^\s*application\/([\w.-]+\+)?json\s*(;|$)/i.test(contentType)) {
    return { ok: false, response: refuse(415, rpcErrorCodes.transport, 'Unsupported Media Type: send the JSON-RPC message as application/json') }
  }
  // Adapters that hold the whole body already (Lambda) never streamed it through the limit. A
  // string has at most three bytes per UTF-16 unit, so a short one needs no counting.
  const bytes = body === undefined ? 0 : typeof body !== 'string' ? body.byteLength : body.length * 3 <= maxRequestBodyBytes ? 0 : Buffer.byteLength(body)
  if (bytes > maxRequestBodyBytes) {
    return { ok: false, response: refuse(400, rpcErrorCodes.invalidRequest, `Invalid Request: ${bodyTooLarge(maxRequestBodyBytes).message}`) }
  }
  const text = body === undefined ? '' : typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false, response: refuse(400, rpcErrorCodes.parseError, 'Parse error: the body must be one JSON-RPC message in JSON') }
  }
}

/**
 * The gateway request for a tool's GET: the caller's request (client identity and all), minus
 * its body, and minus conditions that would turn the answer into a bodiless 304.
 */
function internalRequest(outer: GatewayRequest, target: ToolTarget): GatewayRequest {
  const { readBody: _body, ...request } = outer
  let headers = outer.headers
  if (headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined) {
    const { 'if-none-match': _match, 'if-modified-since': _since, ...rest } = headers
    headers = rest
  }
  return { ...request, method: 'GET', path: target.path, query: target.query, headers }
}

/**
 * The MCP endpoints (spec: Streamable HTTP, stateless): each POST is answered on its own, with
 * no session, so any instance behind a load balancer (or any Lambda) can answer any request.
 * Requests are answered with JSON; notifications and responses with 202; a GET is the
 * router's 405, as the gateway offers no server-sent event stream. Malformed input is answered
 * with a JSON-RPC error, never a 500.
 *
 * @example
 * const mcp = createMcpEndpoint({ catalog, routes: () => router.routes, handle: gateway.handle, version: '0.1.0', options: {}, onError })
 * await mcp(call, 'statnett')
 */
export function createMcpEndpoint(parts: McpEndpointParts): McpEndpoint {
  const allowed = parts.options.allowedOrigins ? new Set(parts.options.allowedOrigins) : undefined
  const serverFor = createMcpServers(parts)

  async function dispatch(server: McpServer, message: RpcMessage & { kind: 'request' }, callGateway: CallGateway): Promise<string> {
    try {
      return await answerRequest(server, message, callGateway)
    } catch (error) {
      parts.onError(error)
      return rpcError(message.id, rpcErrorCodes.internalError, 'Internal error: the failure has been logged')
    }
  }

  /** An answer for each message that needs one: requests, and messages that are not JSON-RPC. */
  function answerOne(server: McpServer, message: RpcMessage, callGateway: CallGateway): Promise<string> | string | undefined {
    if (message.kind === 'request') return dispatch(server, message, callGateway)
    if (message.kind === 'invalid') return rpcError(message.id, message.code, message.message)
    return undefined
  }

  /**
   * Answers a POST that calls no tool after counting it once against the client's rate limit:
   * a 429 when over, else the answer with the RateLimit headers. (A tool call is counted by
   * the GET it sends through the gateway, as that GET would be.)
   */
  async function counted(request: GatewayRequest, respond: () => GatewayResponse | Promise<GatewayResponse>): Promise<GatewayResponse> {
    const verdict = parts.count?.(request)
    if (!verdict) return respond()
    const { headers, refusal } = await verdict
    if (refusal) {
      const response = refuse(429, rpcErrorCodes.transport, refusal.message)
      return { ...response, headers: { ...response.headers, ...refusal.headers } }
    }
    const response = await respond()
    return { ...response, headers: { ...response.headers, ...headers } }
  }

  const callsTool = (message: RpcMessage) => message.kind === 'request' && message.method === 'tools/call'

  return async function answer(call, sourceId) {
    const { request, links } = call
    const origin = headerValue(request.headers.origin)
    if (allowed && origin !== undefined && !allowed.has(origin)) {
      return counted(request, () => refuse(403, rpcErrorCodes.transport, `Forbidden: pages on ${origin.slice(0, 200)} may not call this MCP server`))
    }
    const framing = framingFor(headerValue(request.headers.accept))
    if (!framing) return counted(request, () => refuse(406, rpcErrorCodes.transport, 'Not Acceptable: the answer is application/json (or text/event-stream); accept one of them'))

    let body: unknown
    try {
      body = request.readBody ? await request.readBody() : undefined
    } catch (error) {
      // Over the size limit (the adapter's 400), or a body the client broke off.
      const why = error instanceof GatewayError ? error.message : 'the body could not be read'
      return counted(request, () => refuse(error instanceof GatewayError ? error.status : 400, rpcErrorCodes.invalidRequest, `Invalid Request: ${why}`))
    }
    const parsed = parseBody(body, headerValue(request.headers['content-type']))
    if (!parsed.ok) return counted(request, () => parsed.response)

    const versionHeader = headerValue(request.headers['mcp-protocol-version'])
    const unsupported = () =>
      refuse(400, rpcErrorCodes.transport, `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(versionHeader!.slice(0, 40))}; supported: ${supportedProtocolVersions.join(', ')}`)
    const server = serverFor(sourceId, links)
    const callGateway: CallGateway = (target) => parts.handle(internalRequest(request, target))

    if (Array.isArray(parsed.value)) {
      const batch = parsed.value
      const invalid = (message: string) => () => refuse(400, rpcErrorCodes.invalidRequest, `Invalid Request: ${message}`)
      if (versionHeader !== undefined && !isSupportedProtocolVersion(versionHeader)) return counted(request, unsupported)
      const version = versionHeader ?? defaultProtocolVersion
      if (!allowsBatches(version)) return counted(request, invalid(`protocol version ${version} takes one JSON-RPC message per POST (batches were dropped in 2025-06-18)`))
      if (batch.length === 0) return counted(request, invalid('an empty batch'))
      if (batch.length > maxBatchSize) return counted(request, invalid(`a batch may hold at most ${maxBatchSize} messages`))
      const messages = batch.map(classifyMessage)
      if (messages.some((m) => m.kind === 'request' && m.method === 'initialize')) return counted(request, invalid('initialize must be sent on its own, not in a batch'))
      const respond = async () => {
        const answers = (await Promise.all(messages.map((message) => answerOne(server, message, callGateway)))).filter((a): a is string => a !== undefined)
        return answers.length === 0 ? accepted() : reply(200, `[${answers.join(',')}]`, framing)
      }
      return messages.some(callsTool) ? respond() : counted(request, respond)
    }

    const message = classifyMessage(parsed.value)
    if (message.kind === 'invalid') return counted(request, () => reply(400, rpcError(message.id, message.code, message.message)))
    const isInitialize = message.kind === 'request' && message.method === 'initialize'
    // initialize negotiates the version in its body; everything after it names the version in the header.
    if (!isInitialize && versionHeader !== undefined && !isSupportedProtocolVersion(versionHeader)) return counted(request, unsupported)
    if (message.kind !== 'request') return counted(request, accepted)
    const respond = async () => reply(200, await dispatch(server, message, callGateway), framing)
    return callsTool(message) ? respond() : counted(request, respond)
  }
}
