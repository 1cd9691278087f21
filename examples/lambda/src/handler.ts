import { createLambdaHandler } from '@allmenning/adapter-lambda'
import { createGateway, createMemoryCacheStore } from '@allmenning/core'
import { mcpServers } from '@allmenning/mcp'
import { builtInSources } from '@allmenning/sources'
import Keyv from 'keyv'

// Built once per container, outside the handler, so warm invocations reuse the gateway and
// its in-memory cache instead of starting cold every time. SAM passes unset parameters as
// empty strings; builtInSources treats those as "use the real service".
const gateway = createGateway({
  sources: builtInSources(process.env),
  // In memory and bounded: the least recently used answers go first past 32 MiB.
  cache: new Keyv({ store: createMemoryCacheStore() }),
  // Every source as an MCP server as well (@allmenning/mcp): /mcp (the catalogue server) and
  // /{source}/mcp. Optional: ALLMENNING_MCP=off turns it off; to leave the MCP SDK out of the
  // bundle too, delete this line and the import (see README).
  extensions: process.env.ALLMENNING_MCP === 'off' ? [] : [mcpServers()],
  ...(process.env.PUBLIC_BASE_URL ? { publicBaseUrl: process.env.PUBLIC_BASE_URL } : {}),
})

/**
 * The Lambda entry point (`dist/handler.handler`), serving API Gateway REST and HTTP APIs and
 * ALB from the same function.
 *
 * @example
 * // template.yaml
 * // Handler: dist/handler.handler
 */
export const handler = createLambdaHandler(gateway, { basePath: process.env.ALLMENNING_BASE_PATH })
