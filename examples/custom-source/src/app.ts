import express from 'express'
import {
  createGateway,
  gatewayOptionsFromEnv,
  upstreamOverridesFromEnvironment,
  type GatewayOptions,
} from '@allmenning/core'
import { builtInSources } from '@allmenning/sources'
import { swaggerUiExplorer } from '@allmenning/explorer'
import { createExpressMiddleware } from '@allmenning/adapter-express'
import { weather } from './weather.js'

/**
 * The built-in sources plus the custom one, behind Express. `ALLMENNING_UPSTREAM_MET` and
 * `ALLMENNING_UPSTREAM_MET_ALERTS` override MET's URLs.
 */
export function createApp(
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<GatewayOptions> = {},
) {
  const custom = weather()
  const gateway = createGateway({
    sources: [...builtInSources(env), custom],
    // The built-ins read their ALLMENNING_UPSTREAM_<ID> themselves; a plugin's upstreams are named here.
    upstreams: upstreamOverridesFromEnvironment(
      env,
      custom.upstreams.map((u) => u.id),
    ),
    // Rate limits, a bounded in-memory cache, and the contact MET's terms ask for in the
    // User-Agent (ALLMENNING_CONTACT): read as every example reads them.
    ...gatewayOptionsFromEnv(env).gateway,
    // The API explorer at /api/v1/docs: Swagger UI, served by the gateway itself.
    explorer: swaggerUiExplorer(),
    ...overrides,
  })
  const app = express()
  app.disable('x-powered-by')
  app.use(createExpressMiddleware(gateway))
  return app
}
