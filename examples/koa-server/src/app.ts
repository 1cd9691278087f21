import { bodyParser } from '@koa/bodyparser'
import { Router } from '@koa/router'
import { createKoaErrorHandler, createKoaMiddleware, createKoaNotFoundHandler } from '@allmenning/adapter-koa'
import { createGateway, createMemoryCacheStore, type GatewayOptions } from '@allmenning/core'
import { builtInSources } from '@allmenning/sources'
import { swaggerUiExplorer } from '@allmenning/explorer'
import { mcpServers } from '@allmenning/mcp'
import { datasetStoreFromEnv } from '@allmenning/datasets'
import Koa from 'koa'
import Keyv from 'keyv'

/**
 * The example Koa app: every built-in source mounted under `basePath` (the root by default),
 * next to a route of the app's own (`GET /health`) and @koa/bodyparser. Upstream base URLs
 * come from `ALLMENNING_UPSTREAM_<NAME>`, links from `PUBLIC_BASE_URL`, loaded datasets
 * from `ALLMENNING_DATA_DIR`. Whatever the host app cannot serve (a malformed JSON body, an
 * unknown charset, a path it has no route for) is answered as JSON in the gateway's error
 * body, never as Koa's plain text.
 *
 * @example
 * const app = createApp({ ALLMENNING_UPSTREAM_STATNETT: 'http://127.0.0.1:4010/restapi' }, { basePath: '/data' })
 * app.listen(3000) // GET http://localhost:3000/data/api/v1/kilder
 */
export function createApp(
  env: Record<string, string | undefined> = process.env,
  options: { basePath?: string; gateway?: Partial<GatewayOptions>; onHostError?: (error: unknown) => void } = {},
): Koa {
  const basePath = options.basePath ?? '/'
  const gateway = createGateway({
    sources: builtInSources(env),
    // In memory and bounded: the least recently used answers go first past 32 MiB.
    cache: new Keyv({ store: createMemoryCacheStore() }),
    // The API explorer at /api/v1/docs: Swagger UI, served by the gateway itself.
    explorer: swaggerUiExplorer(),
    // Every source as an MCP server as well (@allmenning/mcp): /mcp (the catalogue server) and /{source}/mcp.
    extensions: [mcpServers()],
    ...(env.PUBLIC_BASE_URL ? { publicBaseUrl: env.PUBLIC_BASE_URL } : {}),
    // Bulk datasets: the snapshot ALLMENNING_DATASETS_SNAPSHOT (s3://bucket/prefix) names, followed as it is
    // republished; else the file `npx allmenning datasets` writes in ALLMENNING_DATA_DIR (./data by default).
    datasets: datasetStoreFromEnv(env),
    ...options.gateway,
  })

  const router = new Router()
  router.get('/health', (ctx) => {
    ctx.body = { status: 'ok' }
  })

  const app = new Koa()
  // First, so that it answers whatever the parser and routes after it throw.
  app.use(createKoaErrorHandler({ basePath, gateway, onError: options.onHostError ?? ((error) => console.error('[example] host error:', error)) }))
  // The gateway comes before the body parser so it reads its own request bodies: a parser in front would
  // answer malformed JSON with its own plain-text 400 instead of the gateway's JSON error.
  // (Behind a parser it still works: it then takes the parsed value.) Paths it does not own
  // fall through to the parser and the router.
  app.use(createKoaMiddleware(gateway, { basePath }))
  app.use(bodyParser())
  app.use(router.routes())
  // Last: a path nobody served. (No router.allowedMethods(): it answers a method it has never
  // heard of, PROPFIND or TRACE, with a 501, a server error for a client's mistake; here any
  // method without a route is the same JSON 404 as in the Express example.)
  app.use(createKoaNotFoundHandler({ basePath }))
  return app
}
