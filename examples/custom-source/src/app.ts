import express from 'express'
import Keyv from 'keyv'
import { createGateway, createMemoryCacheStore, upstreamOverridesFromEnvironment, type GatewayOptions } from '@allmenning/core'
import { builtInSources } from '@allmenning/sources'
import { swaggerUiExplorer } from '@allmenning/explorer'
import { createExpressMiddleware } from '@allmenning/adapter-express'
import { weather } from './weather.js'

/**
 * The built-in sources plus the custom one, behind Express. `ALLMENNING_UPSTREAM_MET` and
 * `ALLMENNING_UPSTREAM_MET_ALERTS` override MET's URLs.
 */
export function createApp(env: Record<string, string | undefined> = process.env, overrides: Partial<GatewayOptions> = {}) {
  const custom = weather()
  const gateway = createGateway({
    sources: [...builtInSources(env), custom],
    // The built-ins read their ALLMENNING_UPSTREAM_<ID> themselves; a plugin's upstreams are named here.
    upstreams: upstreamOverridesFromEnvironment(env, custom.upstreams.map((u) => u.id)),
    // In memory and bounded: the least recently used answers go first past 32 MiB.
    cache: new Keyv({ store: createMemoryCacheStore() }),
    // The API explorer at /api/v1/docs: Swagger UI, served by the gateway itself.
    explorer: swaggerUiExplorer(),
    // MET refuses calls without an identifying User-Agent; name the deployment and a contact.
    upstream: { userAgent: env.ALLMENNING_USER_AGENT || 'allmenning-example/0.1.0' },
    ...overrides,
  })
  const app = express()
  app.disable('x-powered-by')
  app.use(createExpressMiddleware(gateway))
  return app
}
