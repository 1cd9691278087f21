import { bodyParser } from '@koa/bodyparser'
import { Router } from '@koa/router'
import { createKoaMiddleware } from '@allmenning/adapter-koa'
import { createGateway, type GatewayOptions } from '@allmenning/core'
import { builtInSources } from '@allmenning/sources'
import { swaggerUiExplorer } from '@allmenning/explorer'
import Koa from 'koa'
import Keyv from 'keyv'

/**
 * The example Koa app: every built-in source mounted under `prefix` (the root by default),
 * next to a route of the app's own (`GET /health`) and @koa/bodyparser. Upstream base URLs
 * come from `ALLMENNING_UPSTREAM_<NAME>`, links from `PUBLIC_BASE_URL`.
 *
 * @example
 * const app = createApp({ ALLMENNING_UPSTREAM_STATNETT: 'http://127.0.0.1:4010/restapi' }, { prefix: '/data' })
 * app.listen(3000) // GET http://localhost:3000/data/api/v1/kilder
 */
export function createApp(
  env: Record<string, string | undefined> = process.env,
  options: { prefix?: string; gateway?: Partial<GatewayOptions> } = {},
): Koa {
  const gateway = createGateway({
    sources: builtInSources(env),
    cache: new Keyv(),
    // The API explorer at /api/v1/docs: Swagger UI, served by the gateway itself.
    explorer: swaggerUiExplorer(),
    // Every source as an MCP server as well: /mcp (the catalogue) and /{source}/mcp.
    mcp: true,
    ...(env.PUBLIC_BASE_URL ? { publicBaseUrl: env.PUBLIC_BASE_URL } : {}),
    ...options.gateway,
  })

  const router = new Router()
  router.get('/health', (ctx) => {
    ctx.body = { status: 'ok' }
  })

  const app = new Koa()
  // The gateway goes first so it reads its own request bodies: a body parser in front would
  // answer malformed JSON with its own plain-text 400 instead of the gateway's JSON error.
  // (Behind a parser it still works: it then takes the parsed value.) Paths it does not own
  // fall through to the parser and the router.
  app.use(createKoaMiddleware(gateway, { prefix: options.prefix ?? '/' }))
  app.use(bodyParser())
  app.use(router.routes())
  app.use(router.allowedMethods())
  return app
}
