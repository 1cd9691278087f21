import express from 'express'
import {
  createGateway,
  EnvironmentVariableError,
  gatewayOptionsFromEnv,
  type GatewayOptions,
  type RedisPackage,
} from '@allmenning/core'
import { builtInSources } from '@allmenning/sources'
import { swaggerUiExplorer } from '@allmenning/explorer'
import { mcpServers } from '@allmenning/mcp'
import { datasetStoreFromEnv } from '@allmenning/datasets'
import {
  createExpressErrorHandler,
  createExpressMiddleware,
  createExpressNotFoundHandler,
} from '@allmenning/adapter-express'
import { observabilityFromEnv } from '@allmenning/observability'
import { prometheusMetrics } from '@allmenning/observability/prometheus'
import { openTelemetryTracing } from '@allmenning/observability/opentelemetry'

/**
 * The example gateway: every built-in source behind Express. Configured from the environment
 * (docs/configuration.md lists every variable): rate limits on by default, a bounded in-memory
 * cache or `REDIS_URL`, the contact sent upstream, proxy trust, upstream base URLs
 * (`ALLMENNING_UPSTREAM_<NAME>`), loaded datasets (`ALLMENNING_DATA_DIR`). A bad value throws
 * an error naming the variable. The app carries its gateway as `app.gateway`, for the server's
 * own refusals (`answerServerRefusals(server, app.gateway)`) to leave through it too.
 * `redis` is `@keyv/redis` where `REDIS_URL` is set: `main.ts` imports it only then, as its
 * import takes about 150 ms of every start (and a few MB) from a gateway that has no Redis.
 */
export function createApp(
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<GatewayOptions> = {},
  redis?: RedisPackage,
) {
  // Rate limits, the cache (bounded in memory, or Redis shared with the limits and the single
  // flight), the contact in the User-Agent, proxy trust and links: read as every example reads them.
  if (env.MOUNT_PATH && !env.MOUNT_PATH.startsWith('/'))
    throw new EnvironmentVariableError('MOUNT_PATH', 'a path starting with /', env.MOUNT_PATH)
  const fromEnv = gatewayOptionsFromEnv(env, { redis })
  // Metrics at ALLMENNING_METRICS_PATH (/metrics), spans for whatever OpenTelemetry SDK the
  // process registers (none: nothing recorded), and ALLMENNING_REQUEST_LOG=json's log lines.
  const observability = observabilityFromEnv(env)
  const metrics = observability.metricsPath ? prometheusMetrics() : undefined
  const gateway = createGateway({
    // The demo (demo/start-demo.ts) gives its own sources and datasets: neither is then made from the environment.
    sources: overrides.sources ?? builtInSources(env),
    ...fromEnv.gateway,
    // The API explorer at /api/v1/docs: Swagger UI, served by the gateway itself.
    explorer: swaggerUiExplorer(),
    // Every source as an MCP server as well (@allmenning/mcp): /mcp (the catalogue server) and /{source}/mcp;
    // with the /wiki compatibility mount, the catalogue also where the public gateway has it, /allemannsdata/mcp.
    extensions: [mcpServers({ publicGatewayCatalogue: Boolean(env.MOUNT_PATH && env.MOUNT_PATH !== '/') })],
    // Bulk datasets: the snapshot ALLMENNING_DATASETS_SNAPSHOT (s3://bucket/prefix) names, followed as it is
    // republished; else the file `npx allmenning datasets` writes in ALLMENNING_DATA_DIR (./data by default).
    datasets: overrides.datasets ?? datasetStoreFromEnv(env),
    observers: [
      openTelemetryTracing(),
      ...(metrics ? [metrics.observer] : []),
      ...(observability.requestLog ? [observability.requestLog] : []),
    ],
    ...overrides,
  })
  const app = express()
  app.disable('x-powered-by')
  // Behind a proxy, req.ip (whom the rate limits count) is the client's address only if the proxy is trusted.
  app.set('trust proxy', fromEnv.trustProxy)
  // The gateway first, as in the Koa example: it answers the paths it owns before the host app's
  // middleware runs for them (a GET hit never passes the body parser or the routes below), and
  // it reads its own request bodies. Behind a parser it works as well (it then takes the parsed
  // value; docs/mounting.md shows that order). Paths it does not own go on to the app's own.
  // MOUNT_PATH=/wiki serves the API where the public gateway has it, so its clients change only the host.
  const middleware = createExpressMiddleware(gateway)
  app.use(env.MOUNT_PATH || '/', middleware)
  // The public gateway has its MCP servers at the root (/mcp, /{source}/mcp), not under /wiki, so
  // the gateway is mounted at the root as well: agents' MCP configurations then change only the host too.
  if (env.MOUNT_PATH && env.MOUNT_PATH !== '/') app.use(middleware)
  // The host app's own body parser and route, to show the gateway lives beside them.
  app.use(express.json())
  app.get('/health', (_req, res) => void res.json({ status: 'ok' }))
  // For Prometheus to scrape: keep it from the public at the proxy, or set ALLMENNING_METRICS_PATH=off.
  if (metrics && observability.metricsPath) {
    app.get(observability.metricsPath, async (_req, res) => {
      const { contentType, body } = await metrics.scrape()
      res.type(contentType).send(body)
    })
  }
  // Every other path, and every error (a malformed JSON body, an unknown charset), answered in
  // the gateway's JSON error body: never Express's HTML page with its stack trace. Given the
  // gateway, a host parser's refusals of a POST to /mcp are JSON-RPC errors, as MCP clients expect.
  app.use(createExpressNotFoundHandler({ gateway }))
  app.use(createExpressErrorHandler({ gateway, onError: (error) => console.error('[example] host error:', error) }))
  return Object.assign(app, { gateway })
}
