import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { bodyParser } from '@koa/bodyparser'
import { Router } from '@koa/router'
import { createExpressMiddleware } from '@allmenning/adapter-express'
import { createKoaMiddleware } from '@allmenning/adapter-koa'
import { createLambdaHandler } from '@allmenning/adapter-lambda'
import { createFetchHandler } from '@allmenning/adapter-fetch'
import { answerServerRefusals } from '@allmenning/core/adapter'
import { createGateway, type Gateway } from '@allmenning/core'
import type { AdapterConformanceOptions, AdapterQuirk } from '@allmenning/core/conformance'
import { mcpServers } from '@allmenning/mcp'
import { swaggerUiExplorer } from '@allmenning/explorer'
import { statnett } from '@allmenning/sources'
import express from 'express'
import Keyv from 'keyv'
import Koa from 'koa'
import { startFetchServer } from '../support/fetch-server.js'
import { startLambdaEventServer, type LambdaEventServerOptions } from '../support/lambda-event-server.js'

/** Which kind of host the gateway runs in; decides what happens to paths it does not own. */
export type Platform = 'express' | 'koa' | 'lambda' | 'fetch'

/** A running target. */
export interface StartedTarget {
  /** What clients put before `/api/…`: origin plus mount prefix, stage or base path. */
  base: string
  /** `http://127.0.0.1:<port>`, for paths outside the gateway (the host app's own routes). */
  origin: string
  close(): Promise<void>
}

/** One way of serving the gateway over real HTTP. */
export interface ConformanceTarget {
  name: string
  platform: Platform
  /** Lambda front end played, if any. */
  flavour?: LambdaEventServerOptions['flavour']
  /** The host app runs a JSON body parser in front of the gateway. */
  hostParsesJson: boolean
  /** Serves the given gateway through this target. */
  start(gateway: Gateway): Promise<StartedTarget>
  /** What the published conformance suite is told of this target: prefix, host app, quirks. */
  conformance: AdapterConformanceOptions
}

/** Why each platform cannot give the gateway's own answer in some cases (the suite's quirks). */
export const quirkReasons = {
  dropsRepeatedQueryKeys:
    'single-value ALB keeps only the last value of a repeated query key, so the gateway never sees the repetition',
  decodesEncodedSlash: 'HTTP APIs (v2) decode rawPath, so %2F inside a segment arrives as a real "/"',
  decodesQueryValues:
    'REST APIs (v1) deliver decoded query values; one that does not decode arrives as literal text, which the adapter cannot tell from %25-escaped text',
  capsRequestLine:
    'AWS front ends cap the request line (API Gateway 10 KB, ALB 16 KB) before the function runs; the local front end does the same with 431',
  hostParsesJson:
    "the host app's express.json() reads the body before the gateway, so its rules apply (its own HTML 400 for malformed JSON, its 100 KB limit)",
  noHostApp: 'a Lambda has no host app to fall through to, so the gateway answers every path with its own JSON 404',
} satisfies Record<AdapterQuirk, string>

/** The API explorer every target serves, read from swagger-ui-dist once. */
export const explorer = swaggerUiExplorer()

/**
 * The one gateway configuration every target serves: only Statnett (so no test can reach
 * a real upstream), the API explorer, the MCP endpoints, a fresh in-memory cache, and quiet error and
 * feedback hooks.
 */
export function conformanceGateway(statnettBaseUrl: string): Gateway {
  return createGateway({
    sources: [statnett()],
    upstreams: { statnett: { baseUrl: statnettBaseUrl } },
    explorer,
    cache: new Keyv(),
    extensions: [mcpServers()],
    onError: () => {},
    onFeedback: () => {},
  })
}

/**
 * Node's default header limit (16 KB) would answer a long query with 431 before the app sees it.
 * What Node refuses by itself leaves through the gateway's exit, as the example servers do it.
 */
async function listen(listener: RequestListener, gateway: Gateway): Promise<{ server: Server; origin: string }> {
  const server = createServer({ maxHeaderSize: 64 * 1024 }, listener)
  answerServerRefusals(server, gateway)
  server.keepAliveTimeout = 1000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

function closer(server: Server): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
}

/** An Express host app with a route and (optionally) a JSON body parser of its own. */
function expressTarget(name: string, prefix: string, parseJson: boolean): ConformanceTarget {
  return {
    name,
    platform: 'express',
    hostParsesJson: parseJson,
    conformance: {
      publicPrefix: prefix,
      hostApp: { notFoundType: /^text\/html/ },
      quirks: parseJson ? { hostParsesJson: quirkReasons.hostParsesJson } : {},
    },
    async start(gateway) {
      const app = express()
      app.disable('x-powered-by')
      if (parseJson) app.use(express.json())
      app.get('/health', (_req, res) => void res.json({ status: 'ok' }))
      if (prefix === '') app.use(createExpressMiddleware(gateway))
      else app.use(prefix, createExpressMiddleware(gateway))
      const { server, origin } = await listen(app, gateway)
      return { base: origin + prefix, origin, close: closer(server) }
    },
  }
}

/**
 * A Koa host app laid out like `examples/koa-server`: the gateway first (so malformed JSON
 * gets the gateway's own error, not the parser's), then @koa/bodyparser and @koa/router.
 */
function koaTarget(name: string, prefix: string): ConformanceTarget {
  return {
    name,
    platform: 'koa',
    hostParsesJson: false,
    conformance: { publicPrefix: prefix, hostApp: { notFoundType: /^text\/plain/ } },
    async start(gateway) {
      const router = new Router()
      router.get('/health', (ctx) => {
        ctx.body = { status: 'ok' }
      })
      const app = new Koa()
      app.silent = true
      app.use(createKoaMiddleware(gateway, { basePath: prefix || '/' }))
      app.use(bodyParser())
      app.use(router.routes())
      app.use(router.allowedMethods())
      const { server, origin } = await listen(app.callback(), gateway)
      return { base: origin + prefix, origin, close: closer(server) }
    },
  }
}

/** Every Lambda front end caps the request line and has no host app; each decodes its own parts. */
function lambdaQuirks(flavour: LambdaEventServerOptions['flavour']): Partial<Record<AdapterQuirk, string>> {
  const { capsRequestLine, noHostApp, decodesQueryValues, decodesEncodedSlash, dropsRepeatedQueryKeys } = quirkReasons
  return {
    capsRequestLine,
    noHostApp,
    ...(flavour === 'v1' ? { decodesQueryValues } : {}),
    ...(flavour === 'v2' ? { decodesEncodedSlash } : {}),
    ...(flavour === 'alb' ? { dropsRepeatedQueryKeys } : {}),
  }
}

/** The gateway as a Lambda function behind a local server that plays the AWS front end. */
function lambdaTarget(name: string, options: LambdaEventServerOptions): ConformanceTarget {
  return {
    name,
    platform: 'lambda',
    flavour: options.flavour,
    hostParsesJson: false,
    conformance: {
      publicPrefix: options.basePath ?? (options.stage && options.stage !== '$default' ? `/${options.stage}` : ''),
      quirks: lambdaQuirks(options.flavour),
    },
    async start(gateway) {
      const handler = createLambdaHandler(gateway, { basePath: options.basePath })
      const server = await startLambdaEventServer(handler, options)
      return { base: server.url, origin: server.origin, close: server.close }
    },
  }
}

/**
 * The gateway as a Web fetch handler (what Bun.serve, Deno.serve, Hono and a Next.js route
 * call) under `/data`, behind a Node server that makes Web Requests as those runtimes do.
 */
function fetchTarget(name: string, prefix: string): ConformanceTarget {
  return {
    name,
    platform: 'fetch',
    hostParsesJson: false,
    conformance: {
      publicPrefix: prefix,
      quirks: {
        noHostApp:
          'a fetch handler is the whole server (Bun.serve, Deno.serve, a catch-all route): the gateway answers every path with its own JSON 404',
      },
    },
    async start(gateway) {
      const handler = createFetchHandler(gateway, {
        basePath: prefix,
        clientAddress: (_request, info: { remoteAddress: string | undefined }) => info.remoteAddress,
      })
      const server = await startFetchServer(handler)
      return { base: server.origin + prefix, origin: server.origin, close: server.close }
    },
  }
}

/**
 * Every target the conformance suite runs through. Names are stable: the documented
 * exceptions in `conformance.test.ts` refer to them.
 */
export const targets: ConformanceTarget[] = [
  expressTarget('express /data (express.json in front)', '/data', true),
  expressTarget('express at root', '', false),
  koaTarget('koa /data', '/data'),
  koaTarget('koa at root', ''),
  lambdaTarget('lambda REST v1, stage prod', { flavour: 'v1', stage: 'prod' }),
  lambdaTarget('lambda REST v1, custom domain /data', { flavour: 'v1', stage: 'prod', basePath: '/data' }),
  lambdaTarget('lambda HTTP API v2, stage prod', { flavour: 'v2', stage: 'prod' }),
  lambdaTarget('lambda HTTP API v2, $default', { flavour: 'v2', stage: '$default' }),
  lambdaTarget('lambda HTTP API v2, custom domain /data', { flavour: 'v2', stage: 'prod', basePath: '/data' }),
  lambdaTarget('lambda ALB', { flavour: 'alb' }),
  lambdaTarget('lambda ALB multi-value', { flavour: 'alb-multi' }),
  fetchTarget('fetch /data', '/data'),
]
