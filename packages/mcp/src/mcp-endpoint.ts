import { GatewayError, type GatewayRequest, type GatewayResponse } from '@allmenning/core'
import { bodyText, checkParsedBodySize, maxRequestBodyBytes } from '@allmenning/core/adapter'
import type { ExtensionAnswer, ExtensionHost } from '@allmenning/core/extension'
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js'
import { accepted, framingFor, refuse, reply } from './mcp-framing.js'
import type { ToolTarget } from './mcp-tool.js'
import { createOriginCheck } from './origin-check.js'
import { loadSdk, type Sdk } from './sdk.js'
import type { ToolServer } from './tool-server.js'

/** How the MCP endpoints behave; `mcpServers()` takes every default. */
export interface McpOptions {
  /**
   * Origins (`https://app.example.no`) whose browser pages may call the MCP endpoints besides
   * the gateway's own, or `['*']` for every origin. By default a request whose `Origin` header
   * names a foreign origin is refused with 403, as the Streamable HTTP transport asks of
   * servers against DNS rebinding; requests with no Origin (agents, curl) are answered, and so
   * are pages of the gateway's own origin (the host of `publicBaseUrl`, or the request's Host
   * when it is `localhost`, an IP address or listed in `allowedHosts`).
   */
  allowedOrigins?: string[]
  /**
   * Host names (`data.example.no`, `localhost`; no port) the MCP endpoints answer at. Given,
   * a request whose Host header names another is refused with 403 whatever its Origin, and a
   * page served at one of these names counts as the gateway's own. Left out, any Host is
   * answered.
   */
  allowedHosts?: string[]
}

/** JSON-RPC's own codes, for answers given before the SDK has loaded. */
const parseError = -32700
const internalError = -32603

/** The code of a refusal at the HTTP level (media type, Accept, Origin, protocol version), as the SDK's HTTP transport sends it. */
const transportError = -32000

/** The most messages one batch may hold, as the SDK's own HTTP transport allows. */
const maxBatchSize = 100

/**
 * The most tool calls one batch may hold. Each is a GET through the gateway that may reach
 * upstreams (search_sources several), so one POST must not stand for a hundred of them,
 * whether or not rate limits are on.
 */
const maxToolCallsPerBatch = 10

/** The first protocol version without JSON-RPC batches: 2025-03-26 brought them, 2025-06-18 took them out. */
const firstVersionWithoutBatches = '2025-06-18'

const headerValue = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : value)

type Parsed = { ok: true; value: unknown } | { ok: false; response: GatewayResponse }

/** The refusal of a body over the limit, as the SDK's own transport words it. */
const tooLarge = (): GatewayResponse =>
  refuse(413, transportError, `Payload Too Large: Request body must not exceed ${maxRequestBodyBytes} bytes`)

/**
 * The answer, in the transport's shape, to a POST the host app refused before the gateway
 * saw it: its body parser's malformed JSON (or a body that does not inflate) is the parse
 * error -32700, a body over its limit the 413 of our own limit, a media type or encoding it
 * does not take a 415; a failure of its own a -32603 whose cause is not shown.
 *
 * @example
 * refuseHostError(new GatewayError(400, 'invalid_body', '…')).status // 400, { jsonrpc: '2.0', id: null, error: { code: -32700, … } }
 */
export function refuseHostError(refusal: GatewayError): GatewayResponse {
  if (refusal.status === 400) return refuse(400, parseError, 'Parse error: Invalid JSON')
  if (refusal.status === 413) return tooLarge()
  if (refusal.status >= 500) return refuse(500, internalError, 'Internal error')
  return refuse(refusal.status, transportError, refusal.message)
}

/** Whether an error is the core's refusal of a body over the limit (an adapter that read the stream throws it). */
const isTooLarge = (error: unknown) =>
  error instanceof GatewayError && error.details.some((detail) => detail.rule === 'max_size')

/**
 * The body as JSON: raw bytes or text checked for media type and size, or what a host app's
 * parser already made. Such a parser (express.json, @koa/bodyparser) read the body under its
 * own limit, 100 KB or more, so ours is checked again: on the Content-Length the client sent,
 * and on the value written back as JSON (a chunked or compressed body has no useful length).
 */
function parseBody(sdk: Sdk, body: unknown, headers: GatewayRequest['headers']): Parsed {
  // Checked for a parsed body too: a form a host's urlencoded parser made an object of is no JSON-RPC.
  const contentType = headerValue(headers['content-type'])
  if (contentType !== undefined && !/^\s*application\/([\w.-]+\+)?json\s*(;|$)/i.test(contentType)) {
    return {
      ok: false,
      response: refuse(415, transportError, 'Unsupported Media Type: Content-Type must be application/json'),
    }
  }
  if (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array)) {
    try {
      checkParsedBodySize(body, headers['content-length'])
    } catch (error) {
      if (isTooLarge(error)) return { ok: false, response: tooLarge() }
      return { ok: false, response: refuse(400, sdk.ErrorCode.ParseError, 'Parse error: Invalid JSON') }
    }
    return { ok: true, value: body }
  }
  let text: string
  try {
    text = body === undefined ? '' : bodyText(body)
  } catch {
    return { ok: false, response: tooLarge() }
  }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false, response: refuse(400, sdk.ErrorCode.ParseError, 'Parse error: Invalid JSON') }
  }
}

/**
 * The gateway request for a tool's GET: the caller's request (client identity and all), minus
 * its body, and minus conditions that would turn the answer into a bodiless 304.
 */
function internalRequest(outer: GatewayRequest, target: { path: string; query: string }): GatewayRequest {
  const { readBody: _body, ...request } = outer
  let headers = outer.headers
  if (headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined) {
    const { 'if-none-match': _match, 'if-modified-since': _since, ...rest } = headers
    headers = rest
  }
  return { ...request, method: 'GET', path: target.path, query: target.query, headers }
}

const requestKeys = new Set(['jsonrpc', 'id', 'method', 'params'])
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Whether a message is a request the SDK's JSON-RPC schema is sure to take as it is: only
 * its four members, a string or safe-integer id, a method name, params an object without
 * `_meta`. Such a request needs no schema run here (the SDK server runs its own on the
 * params); anything else is left to the schema. Checking each message twice cost a warm
 * tool call a sixth of its time.
 */
function isPlainRequest(message: unknown): message is JSONRPCRequest {
  if (!isPlainObject(message) || message.jsonrpc !== '2.0' || typeof message.method !== 'string') return false
  const { id, params } = message
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return false
  if (params !== undefined && (!isPlainObject(params) || '_meta' in params)) return false
  for (const key in message) if (!requestKeys.has(key)) return false
  return true
}

/** The messages of a body, checked against the SDK's JSON-RPC schema, or why not. */
function readMessages(sdk: Sdk, value: unknown): { messages: JSONRPCMessage[] } | { refusal: GatewayResponse } {
  const raw = Array.isArray(value) ? value : [value]
  if (raw.length > maxBatchSize)
    return {
      refusal: refuse(
        400,
        sdk.ErrorCode.InvalidRequest,
        `Invalid Request: Batch must not exceed ${maxBatchSize} messages`,
      ),
    }
  if (raw.length === 0) return { refusal: refuse(400, sdk.ErrorCode.InvalidRequest, 'Invalid Request: an empty batch') }
  const messages: JSONRPCMessage[] = []
  for (const message of raw) {
    if (isPlainRequest(message)) {
      messages.push(message)
      continue
    }
    const parsed = sdk.JSONRPCMessageSchema.safeParse(message)
    if (!parsed.success)
      return { refusal: refuse(400, sdk.ErrorCode.ParseError, 'Parse error: Invalid JSON-RPC message') }
    messages.push(parsed.data)
  }
  return { messages }
}

/** Finds the server of an endpoint: the catalogue server (no source) or a source's, for the links of the request. */
export type ServerFor = (
  sourceId: string | undefined,
  links: Parameters<ExtensionAnswer>[0]['links'],
  path?: string,
) => ToolServer

/**
 * The MCP endpoints (Streamable HTTP, stateless): each POST is answered on its own, with no
 * session, so any instance behind a load balancer (or any Lambda) can answer any request.
 * This part is the HTTP side, as the SDK's own transport does it (Accept, Content-Type, the
 * body, the JSON-RPC schema, MCP-Protocol-Version), with two differences: a client that
 * accepts only `application/json` is answered (JSON is all it gets anyway), and a GET is the
 * router's 405. Each request then goes to the SDK server of its endpoint; notifications and
 * responses are answered with 202, as the server has no state they could change.
 *
 * @example
 * const answer = createMcpEndpoint(host, (sdk) => serverFor, {})
 * await answer({ request, links, sourceId: 'statnett' })
 */
export function createMcpEndpoint(
  host: ExtensionHost,
  makeServers: (sdk: Sdk) => ServerFor | Promise<ServerFor>,
  options: McpOptions,
): ExtensionAnswer {
  const checkOrigin = createOriginCheck(options)
  // Set once the SDK and the servers' code have loaded (on the first POST), so later requests do
  // not wait a turn for them; the first POSTs to come share one load.
  let loaded: { sdk: Sdk; serverFor: ServerFor } | undefined
  let loading: Promise<{ sdk: Sdk; serverFor: ServerFor }> | undefined
  const load = () =>
    (loading ??= loadSdk().then(async (sdk) => {
      loaded = { sdk, serverFor: await makeServers(sdk) }
      return loaded
    }))

  /**
   * Answers a POST that calls no tool after counting it once against the client's rate limit:
   * a 429 when over, else the answer with the RateLimit headers. (A tool call is counted as
   * the GET it stands for, by the gateway that answers it.)
   */
  async function counted(
    request: GatewayRequest,
    respond: () => GatewayResponse | Promise<GatewayResponse>,
  ): Promise<GatewayResponse> {
    const verdict = host.count(request)
    if (!verdict) return respond()
    const { headers, refusal } = await verdict
    if (refusal) {
      const response = refuse(429, transportError, refusal.message)
      return { ...response, headers: { ...response.headers, ...refusal.headers } }
    }
    const response = await respond()
    return { ...response, headers: { ...response.headers, ...headers } }
  }

  return async function answer({ request, links, sourceId, path }) {
    const forbidden = checkOrigin({
      origin: headerValue(request.headers.origin),
      host: headerValue(request.headers.host),
      mount: links.mount,
    })
    // Not counted: a foreign page would otherwise spend the quota of whoever visits it.
    if (forbidden !== undefined) return refuse(403, transportError, `Forbidden: ${forbidden}`)
    const { sdk, serverFor } = loaded ?? (await load())
    const { ErrorCode, SUPPORTED_PROTOCOL_VERSIONS } = sdk
    const framing = framingFor(headerValue(request.headers.accept))
    if (!framing)
      return counted(request, () =>
        refuse(
          406,
          transportError,
          'Not Acceptable: the answer is application/json (or text/event-stream); accept one of them',
        ),
      )

    let body: unknown
    try {
      body = request.readBody ? await request.readBody() : undefined
    } catch (error) {
      // Over the size limit (found by the adapter as it read the stream), or a body the client broke off.
      if (isTooLarge(error)) return counted(request, tooLarge)
      const why = error instanceof GatewayError ? error.message : 'the body could not be read'
      return counted(request, () =>
        refuse(error instanceof GatewayError ? error.status : 400, ErrorCode.InvalidRequest, `Invalid Request: ${why}`),
      )
    }
    const parsed = parseBody(sdk, body, request.headers)
    if (!parsed.ok) return counted(request, () => parsed.response)
    const read = readMessages(sdk, parsed.value)
    if ('refusal' in read) return counted(request, () => read.refusal)
    const { messages } = read

    // The messages passed the SDK's schema already: their method names and ids are enough to
    // sort them, without a second schema check per message (the SDK server checks params).
    if (messages.some((message) => 'method' in message && message.method === 'initialize')) {
      if (messages.length > 1)
        return counted(request, () =>
          refuse(400, ErrorCode.InvalidRequest, 'Invalid Request: Only one initialization request is allowed'),
        )
    } else {
      // initialize negotiates the version in its body; everything after it names it in the header.
      const version = headerValue(request.headers['mcp-protocol-version'])
      if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
        return counted(request, () =>
          refuse(
            400,
            transportError,
            `Bad Request: Unsupported protocol version: ${version.slice(0, 40)} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
          ),
        )
      }
    }

    const requests = messages.filter((message): message is JSONRPCRequest => 'method' in message && 'id' in message)
    if (Array.isArray(parsed.value)) {
      // With no header the transport assumes 2025-03-26, which has batches.
      const version = headerValue(request.headers['mcp-protocol-version'])
      if (version !== undefined && version >= firstVersionWithoutBatches) {
        return counted(request, () =>
          refuse(
            400,
            ErrorCode.InvalidRequest,
            `Invalid Request: MCP ${version.slice(0, 40)} has no JSON-RPC batches; send one message per POST`,
          ),
        )
      }
      if (requests.filter((message) => message.method === 'tools/call').length > maxToolCallsPerBatch) {
        return counted(request, () =>
          refuse(
            400,
            ErrorCode.InvalidRequest,
            `Invalid Request: a batch may call at most ${maxToolCallsPerBatch} tools`,
          ),
        )
      }
    }
    if (requests.length === 0) return counted(request, accepted)
    const respond = async () => {
      const { transport, ready } = serverFor(sourceId, links, path)
      await ready
      const context = {
        // An operation's GET is answered in process, counted as that GET; any other route's goes through the front door.
        callGateway: (target: ToolTarget) =>
          'path' in target
            ? host.handle(internalRequest(request, target))
            : host.invoke(request, { source: target.source, operation: target.operation }, target.params),
      }
      const answers = await Promise.all(requests.map((message) => transport.exchange(message, context)))
      return reply(200, Array.isArray(parsed.value) ? `[${answers.join(',')}]` : answers[0]!, framing)
    }
    return requests.some((message) => message.method === 'tools/call') ? respond() : counted(request, respond)
  }
}
