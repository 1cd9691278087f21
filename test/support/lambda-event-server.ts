import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type {
  ALBEvent,
  ALBResult,
  APIGatewayProxyEvent,
  APIGatewayProxyEventV2,
  APIGatewayProxyResult,
  APIGatewayProxyStructuredResultV2,
} from 'aws-lambda'

/** Which AWS front end the server plays. `alb-multi` is a target group with multi-value headers on. */
export type LambdaEventFlavour = 'v1' | 'v2' | 'alb' | 'alb-multi'

/** Any event the server builds. */
export type LambdaEventOf = APIGatewayProxyEvent | APIGatewayProxyEventV2 | ALBEvent

/** Any result a handler may answer. */
export type LambdaResultOf = APIGatewayProxyResult | APIGatewayProxyStructuredResultV2 | ALBResult

/**
 * The function under test. Typed loosely on purpose: a handler with overloads per event type
 * (like `createLambdaHandler`'s) is assignable to it.
 */
export type LambdaEventHandler = (event: LambdaEventOf, context: LambdaContextStub) => Promise<LambdaResultOf>

/** The few Context fields a handler might read; the rest of Lambda's Context is not played. */
export interface LambdaContextStub {
  awsRequestId: string
  functionName: string
  getRemainingTimeInMillis(): number
}

export interface LambdaEventServerOptions {
  flavour: LambdaEventFlavour
  /**
   * API Gateway stage (ignored for ALB). Default `prod` for v1 and `$default` for v2. On the
   * execute-api host clients put a named stage first in the URL; `url` already includes it.
   */
  stage?: string
  /**
   * Play a custom domain with this base-path mapping (`/data`): clients call
   * `/data/api/…`, the mapping names the stage so the URL has none, and AWS leaves the base
   * path in `path` / `rawPath`. For ALB it is just the listener rule's path prefix. Create the
   * handler with the same `basePath` option.
   */
  basePath?: string
}

export interface LambdaEventServer {
  /** Base URL to append `/api/…` to: origin plus the stage or base path clients must send. */
  url: string
  /** `http://127.0.0.1:<port>` */
  origin: string
  /** Every event handed to the handler, oldest first, to assert on what AWS would have sent. */
  events: LambdaEventOf[]
  close(): Promise<void>
}

/**
 * Starts a local HTTP server on 127.0.0.1 that turns each real request into the event AWS
 * would deliver (API Gateway REST v1, HTTP API v2, or ALB), calls `handler`, and writes its
 * result back as the HTTP response, like the front end would.
 *
 * How each flavour builds the event, as AWS does:
 * - v1: `path` without the stage (execute-api host) or with the base path (custom domain);
 *   query keys and values decoded (`+` as space) into `queryStringParameters` (last value)
 *   and `multiValueQueryStringParameters`; headers as sent plus `multiValueHeaders`.
 * - v2: `rawPath` with a named stage, and decoded the way HTTP APIs do; `rawQueryString`
 *   as sent; `queryStringParameters` decoded with repeated values joined by ','; header
 *   names lower-cased, repeated values joined by ','; Cookie moved into `cookies`.
 * - alb / alb-multi: path and query values left encoded; lower-cased header names; single
 *   mode keeps the last of repeated headers and keys, multi mode keeps them all.
 * Bodies of text types arrive as text, anything else (or compressed) base64-encoded.
 *
 * @example
 * const server = await startLambdaEventServer(createLambdaHandler(gateway), { flavour: 'v2', stage: 'prod' })
 * const res = await fetch(`${server.url}/api/v1/kilder`) // GET http://127.0.0.1:<port>/prod/api/v1/kilder
 * await server.close()
 */
export async function startLambdaEventServer(
  handler: LambdaEventHandler,
  options: LambdaEventServerOptions,
): Promise<LambdaEventServer> {
  const events: LambdaEventOf[] = []
  const settings = resolveSettings(options)
  const server: Server = createServer((req, res) => {
    void answer(req, res).catch((error: unknown) => {
      // A throwing handler is what API Gateway turns into its generic 502.
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ message: 'Internal server error', detail: String(error) }))
    })
  })

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const incoming = await readIncoming(req, server)
    const built = buildEvent(incoming, settings)
    if ('reject' in built) {
      res.writeHead(built.reject.status, { 'content-type': 'application/json' })
      res.end(built.reject.body)
      return
    }
    // The Lambda runtime hands the function parsed JSON, where a query key like `__proto__`
    // or `constructor` is an ordinary own property; the round trip reproduces that.
    const event = JSON.parse(JSON.stringify(built.event)) as LambdaEventOf
    events.push(event)
    const result = await handler(event, contextStub())
    writeResult(res, result, incoming.method)
  }

  server.keepAliveTimeout = 1000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url: origin + settings.clientPrefix,
    origin,
    events,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

interface Settings {
  flavour: LambdaEventFlavour
  stage: string
  basePath: string
  /** What clients put before `/api`: `/prod` on the execute-api host, the base path on a custom domain. */
  clientPrefix: string
  customDomain: boolean
}

function resolveSettings(options: LambdaEventServerOptions): Settings {
  const basePath = (options.basePath ?? '').replace(/\/+$/, '')
  const normalizedBase = basePath === '' || basePath.startsWith('/') ? basePath : `/${basePath}`
  const stage = options.stage ?? (options.flavour === 'v1' ? 'prod' : '$default')
  const isAlb = options.flavour === 'alb' || options.flavour === 'alb-multi'
  const customDomain = !isAlb && normalizedBase !== ''
  let clientPrefix = normalizedBase
  if (!isAlb && !customDomain && stage !== '$default') clientPrefix = `/${stage}`
  return { flavour: options.flavour, stage, basePath: normalizedBase, clientPrefix, customDomain }
}

interface Incoming {
  method: string
  path: string
  rawQuery: string
  /** Header lines in arrival order, names as the client sent them. */
  headerLines: [string, string][]
  body: Buffer
  sourceIp: string
  port: number
}

async function readIncoming(req: IncomingMessage, server: Server): Promise<Incoming> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const url = req.url ?? '/'
  const mark = url.indexOf('?')
  const headerLines: [string, string][] = []
  for (let i = 0; i < req.rawHeaders.length; i += 2) headerLines.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!])
  return {
    method: (req.method ?? 'GET').toUpperCase(),
    path: mark === -1 ? url : url.slice(0, mark),
    rawQuery: mark === -1 ? '' : url.slice(mark + 1),
    headerLines,
    body: Buffer.concat(chunks),
    sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
    port: (server.address() as AddressInfo).port,
  }
}

type Built = { event: LambdaEventOf } | { reject: { status: number; body: string } }

function buildEvent(incoming: Incoming, settings: Settings): Built {
  const lines = withForwardingHeaders(incoming)
  switch (settings.flavour) {
    case 'v1':
      return buildRestApiEvent(incoming, lines, settings)
    case 'v2':
      return buildHttpApiEvent(incoming, lines, settings)
    default:
      return { event: buildAlbEvent(incoming, lines, settings.flavour === 'alb-multi') }
  }
}

/** AWS front ends add these; the client's own X-Forwarded-For is extended, not replaced. */
function withForwardingHeaders(incoming: Incoming): [string, string][] {
  const lines = incoming.headerLines.filter(([name]) => !/^x-forwarded-(port|proto)$/i.test(name))
  const forIndex = lines.findIndex(([name]) => name.toLowerCase() === 'x-forwarded-for')
  if (forIndex === -1) lines.push(['X-Forwarded-For', incoming.sourceIp])
  else lines[forIndex] = [lines[forIndex]![0], `${lines[forIndex]![1]}, ${incoming.sourceIp}`]
  lines.push(['X-Forwarded-Port', String(incoming.port)], ['X-Forwarded-Proto', 'http'])
  return lines
}

function buildRestApiEvent(incoming: Incoming, lines: [string, string][], settings: Settings): Built {
  let path = incoming.path
  if (!settings.customDomain && settings.stage !== '$default') {
    // On the execute-api host a request without the stage never reaches the function.
    const stagePrefix = `/${settings.stage}`
    if (path !== stagePrefix && !path.startsWith(`${stagePrefix}/`)) {
      return { reject: { status: 403, body: '{"message":"Forbidden"}' } }
    }
    path = path.slice(stagePrefix.length) || '/'
  }
  const headers: Record<string, string> = dict()
  const multiValueHeaders: Record<string, string[]> = dict()
  for (const [name, value] of lines) {
    headers[name] = value
    ;(multiValueHeaders[name] ??= []).push(value)
  }
  const single: Record<string, string> = dict()
  const multi: Record<string, string[]> = dict()
  for (const [key, value] of formDecodedPairs(incoming.rawQuery)) {
    single[key] = value
    ;(multi[key] ??= []).push(value)
  }
  const hasQuery = Object.keys(multi).length > 0
  const body = encodeBody(incoming)
  const proxy = path.replace(/^\//, '')
  const event: APIGatewayProxyEvent = {
    resource: '/{proxy+}',
    path,
    httpMethod: incoming.method,
    headers,
    multiValueHeaders,
    queryStringParameters: hasQuery ? single : null,
    multiValueQueryStringParameters: hasQuery ? multi : null,
    pathParameters: proxy === '' ? null : { proxy },
    stageVariables: null,
    requestContext: {
      accountId: '123456789012',
      apiId: 'local',
      authorizer: undefined,
      domainName: settings.customDomain ? 'data.example.test' : `local.execute-api.eu-north-1.amazonaws.com`,
      domainPrefix: settings.customDomain ? 'data' : 'local',
      extendedRequestId: randomUUID(),
      httpMethod: incoming.method,
      identity: identity(incoming, lines),
      // The client's path as it reached the stage: with the stage on the execute-api host.
      path: incoming.path,
      protocol: 'HTTP/1.1',
      requestId: randomUUID(),
      requestTime: new Date().toUTCString(),
      requestTimeEpoch: Date.now(),
      resourceId: 'proxy0',
      resourcePath: '/{proxy+}',
      stage: settings.stage,
    },
    body: body.text,
    isBase64Encoded: body.isBase64Encoded,
  }
  return { event }
}

function buildHttpApiEvent(incoming: Incoming, lines: [string, string][], settings: Settings): Built {
  if (!settings.customDomain && settings.stage !== '$default') {
    const stagePrefix = `/${settings.stage}`
    if (incoming.path !== stagePrefix && !incoming.path.startsWith(`${stagePrefix}/`)) {
      return { reject: { status: 404, body: '{"message":"Not Found"}' } }
    }
  }
  const headers: Record<string, string> = dict()
  let cookies: string[] | undefined
  for (const [rawName, value] of lines) {
    const name = rawName.toLowerCase()
    if (name === 'cookie') {
      cookies = [...(cookies ?? []), ...value.split(/;\s*/).filter((part) => part !== '')]
      continue
    }
    headers[name] = headers[name] === undefined ? value : `${headers[name]},${value}`
  }
  const queryStringParameters: Record<string, string> = dict()
  for (const [key, value] of formDecodedPairs(incoming.rawQuery)) {
    queryStringParameters[key] =
      queryStringParameters[key] === undefined ? value : `${queryStringParameters[key]},${value}`
  }
  const body = encodeBody(incoming)
  // HTTP APIs hand the function a decoded path (a known AWS quirk the adapter must survive).
  const rawPath = safeDecode(incoming.path)
  const event: APIGatewayProxyEventV2 = {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString: incoming.rawQuery,
    headers,
    requestContext: {
      accountId: '123456789012',
      apiId: 'local',
      domainName: settings.customDomain ? 'data.example.test' : 'local.execute-api.eu-north-1.amazonaws.com',
      domainPrefix: settings.customDomain ? 'data' : 'local',
      http: {
        method: incoming.method,
        path: rawPath,
        protocol: 'HTTP/1.1',
        sourceIp: incoming.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: '$default',
      stage: settings.stage,
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    isBase64Encoded: body.isBase64Encoded,
  }
  if (cookies) event.cookies = cookies
  if (Object.keys(queryStringParameters).length > 0) event.queryStringParameters = queryStringParameters
  if (body.text !== null) event.body = body.text
  return { event }
}

function buildAlbEvent(incoming: Incoming, lines: [string, string][], multiValue: boolean): ALBEvent {
  const pairs = rawPairs(incoming.rawQuery)
  const body = encodeBody(incoming)
  const event: ALBEvent = {
    requestContext: {
      elb: { targetGroupArn: 'arn:aws:elasticloadbalancing:eu-north-1:123456789012:targetgroup/local/0' },
    },
    httpMethod: incoming.method,
    path: incoming.path,
    body: body.text ?? '',
    isBase64Encoded: body.isBase64Encoded,
  }
  if (multiValue) {
    const headers: Record<string, string[]> = dict()
    for (const [name, value] of lines) (headers[name.toLowerCase()] ??= []).push(value)
    const query: Record<string, string[]> = dict()
    for (const [key, value] of pairs) (query[key] ??= []).push(value)
    event.multiValueHeaders = headers
    event.multiValueQueryStringParameters = query
  } else {
    const headers: Record<string, string> = dict()
    for (const [name, value] of lines) headers[name.toLowerCase()] = value
    const query: Record<string, string> = dict()
    for (const [key, value] of pairs) query[key] = value
    event.headers = headers
    event.queryStringParameters = query
  }
  return event
}

function identity(incoming: Incoming, lines: [string, string][]): APIGatewayProxyEvent['requestContext']['identity'] {
  const userAgent = lines.find(([name]) => name.toLowerCase() === 'user-agent')?.[1] ?? null
  return {
    accessKey: null,
    accountId: null,
    apiKey: null,
    apiKeyId: null,
    caller: null,
    clientCert: null,
    cognitoAuthenticationProvider: null,
    cognitoAuthenticationType: null,
    cognitoIdentityId: null,
    cognitoIdentityPoolId: null,
    principalOrgId: null,
    sourceIp: incoming.sourceIp,
    user: null,
    userAgent,
    userArn: null,
  }
}

/**
 * An empty map without a prototype, so client-chosen names (`__proto__`, `constructor`)
 * become own keys instead of reaching Object.prototype, as they do in AWS's JSON events.
 */
function dict<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>
}

/** Query pairs split on '&' and the first '=', left exactly as sent (what ALB does). */
function rawPairs(rawQuery: string): [string, string][] {
  if (rawQuery === '') return []
  return rawQuery
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const eq = part.indexOf('=')
      return eq === -1 ? [part, ''] : [part.slice(0, eq), part.slice(eq + 1)]
    })
}

/** Query pairs decoded the form way, '+' as space (what API Gateway does). */
function formDecodedPairs(rawQuery: string): [string, string][] {
  return rawPairs(rawQuery).map(([key, value]) => [formDecode(key), formDecode(value)])
}

function formDecode(text: string): string {
  return safeDecode(text.replace(/\+/g, ' '))
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

const TEXT_TYPE = /^(text\/|application\/(json|[\w.+-]*\+json|xml|[\w.+-]*\+xml|javascript|x-www-form-urlencoded)\b)/i

/** Text goes as text; other or compressed content is base64, as the front ends do. */
function encodeBody(incoming: Incoming): { text: string | null; isBase64Encoded: boolean } {
  if (incoming.body.length === 0) return { text: null, isBase64Encoded: false }
  const header = (name: string) => incoming.headerLines.find(([n]) => n.toLowerCase() === name)?.[1]
  const contentType = header('content-type') ?? ''
  const encoded = header('content-encoding')
  if (TEXT_TYPE.test(contentType.trim()) && (!encoded || encoded === 'identity')) {
    return { text: incoming.body.toString('utf8'), isBase64Encoded: false }
  }
  return { text: incoming.body.toString('base64'), isBase64Encoded: true }
}

function contextStub(): LambdaContextStub {
  const deadline = Date.now() + 30_000
  return {
    awsRequestId: randomUUID(),
    functionName: 'allmenning-local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  }
}

/** Writes a Lambda result the way the front end turns it into HTTP. */
function writeResult(res: ServerResponse, result: LambdaResultOf, method: string): void {
  const headers = new Map<string, string[]>()
  const add = (name: string, value: unknown) => {
    const key = name.toLowerCase()
    headers.set(key, [...(headers.get(key) ?? []), String(value)])
  }
  if ('multiValueHeaders' in result && result.multiValueHeaders) {
    for (const [name, values] of Object.entries(result.multiValueHeaders)) for (const value of values) add(name, value)
  }
  for (const [name, value] of Object.entries(result.headers ?? {})) {
    // A name in both maps is sent once: AWS keeps the multi-value entry.
    if (!headers.has(name.toLowerCase())) add(name, value)
  }
  if ('cookies' in result && result.cookies) for (const cookie of result.cookies) add('set-cookie', cookie)

  const body =
    result.body === undefined ? Buffer.alloc(0) : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8')
  const statusCode = result.statusCode ?? 200
  const bodiless = method === 'HEAD' || statusCode === 204 || statusCode === 304
  if (!headers.has('content-length') && !bodiless) headers.set('content-length', [String(body.length)])
  if ('statusDescription' in result && result.statusDescription) {
    res.statusMessage = result.statusDescription.replace(/^\d+\s*/, '')
  }
  res.statusCode = statusCode
  for (const [name, values] of headers) res.setHeader(name, values.length === 1 ? values[0]! : values)
  res.end(bodiless ? undefined : body)
}
