import { bodyParser } from '@koa/bodyparser'
import { Router } from '@koa/router'
import { createKoaErrorHandler, createKoaMiddleware, createKoaNotFoundHandler } from '@allmenning/adapter-koa'
import {
  createGateway,
  gatewayOptionsFromEnv,
  type GatewayOptions,
  type LocalGateway,
  type RedisPackage,
} from '@allmenning/core'
import { builtInSources } from '@allmenning/sources'
import { swaggerUiExplorer } from '@allmenning/explorer'
import { mcpServers } from '@allmenning/mcp'
import { datasetStoreFromEnv } from '@allmenning/datasets'
import { observabilityFromEnv } from '@allmenning/observability'
import { prometheusMetrics } from '@allmenning/observability/prometheus'
import { openTelemetryTracing } from '@allmenning/observability/opentelemetry'
import Koa from 'koa'

/**
 * The example Koa app: every built-in source mounted under `basePath` (the root by default),
 * next to a route of the app's own (`GET /health`) and @koa/bodyparser. Configured from the
 * environment as the Express example is (docs/configuration.md lists every variable; rate limits
 * are on by default; a bad value throws an error naming the variable). Whatever the host app cannot serve (a malformed JSON body, an
 * unknown charset, a path it has no route for) is answered as JSON in the gateway's error
 * body, never as Koa's plain text. The app carries its gateway as `app.gateway`, for the
 * server's own refusals (`answerServerRefusals(server, app.gateway)`) to leave through it too.
 * `options.redis` is `@keyv/redis` where `REDIS_URL` is set: `main.ts` imports it only then, as
 * its import takes about 150 ms of every start (and a few MB) from a gateway that has no Redis.
 *
 * @example
 * const app = createApp({ ALLMENNING_UPSTREAM_STATNETT: 'http://127.0.0.1:4010/restapi' }, { basePath: '/data' })
 * app.listen(3000) // GET http://localhost:3000/data/api/v1/kilder
 */
export function createApp(
  env: Record<string, string | undefined> = process.env,
  options: {
    basePath?: string
    gateway?: Partial<GatewayOptions>
    onHostError?: (error: unknown) => void
    redis?: RedisPackage
  } = {},
): Koa & { gateway: LocalGateway } {
  const basePath = options.basePath ?? '/'
  // Rate limits, the cache (bounded in memory, or Redis shared with the limits and the single
  // flight), the contact in the User-Agent, proxy trust and links: read as every example reads them.
  const fromEnv = gatewayOptionsFromEnv(env, { redis: options.redis })
  // Metrics at ALLMENNING_METRICS_PATH (/metrics), spans for whatever OpenTelemetry SDK the
  // process registers (none: nothing recorded), and ALLMENNING_REQUEST_LOG=json's log lines.
  const observability = observabilityFromEnv(env)
  const metrics = observability.metricsPath ? prometheusMetrics() : undefined
  const gateway = createGateway({
    sources: builtInSources(env),
    ...fromEnv.gateway,
    // The API explorer at /api/v1/docs: Swagger UI, served by the gateway itself.
    explorer: swaggerUiExplorer(),
    // Every source as an MCP server as well (@allmenning/mcp): /mcp (the catalogue server) and /{source}/mcp.
    extensions: [mcpServers()],
    // Bulk datasets: the snapshot ALLMENNING_DATASETS_SNAPSHOT (s3://bucket/prefix) names, followed as it is
    // republished; else the file `npx allmenning datasets` writes in ALLMENNING_DATA_DIR (./data by default).
    datasets: datasetStoreFromEnv(env),
    observers: [
      openTelemetryTracing(),
      ...(metrics ? [metrics.observer] : []),
      ...(observability.requestLog ? [observability.requestLog] : []),
    ],
    ...options.gateway,
  })

  const router = new Router()
  router.get('/health', (ctx) => {
    ctx.body = { status: 'ok' }
  })
  // For Prometheus to scrape: keep it from the public at the proxy, or set ALLMENNING_METRICS_PATH=off.
  if (metrics && observability.metricsPath) {
    router.get(observability.metricsPath, async (ctx) => {
      const { contentType, body } = await metrics.scrape()
      ctx.type = contentType
      ctx.body = body
    })
  }

  // Behind a proxy, ctx.ip (whom the rate limits count) is the client's address only if the proxy is trusted.
  const app = new Koa({
    proxy: fromEnv.trustProxy !== false,
    ...(typeof fromEnv.trustProxy === 'number' ? { maxIpsCount: fromEnv.trustProxy } : {}),
  })
  // The gateway first: it answers its own errors, and reads its own request bodies (a parser in
  // front would answer malformed JSON with its own plain-text 400 instead of the gateway's JSON
  // error; behind a parser it still works, taking the parsed value). Paths it does not own fall
  // through to the error handler, the parser and the router. A request the gateway answers
  // passes no other middleware: every layer of Koa's chain is a promise and a call on each of
  // them (about 1.3 µs of a 34 µs cache hit).
  app.use(createKoaMiddleware(gateway, { basePath }))
  // Before the parser and the routes, so that it answers whatever they throw as JSON.
  app.use(
    createKoaErrorHandler({
      basePath,
      gateway,
      onError: options.onHostError ?? ((error) => console.error('[example] host error:', error)),
    }),
  )
  app.use(bodyParser())
  app.use(router.routes())
  // Last: a path nobody served. (No router.allowedMethods(): it answers a method it has never
  // heard of, PROPFIND or TRACE, with a 501, a server error for a client's mistake; here any
  // method without a route is the same JSON 404 as in the Express example.)
  app.use(createKoaNotFoundHandler({ basePath, gateway }))
  return Object.assign(app, { gateway })
}
