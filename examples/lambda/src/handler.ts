import { createLambdaHandler, type LambdaEvent, type LambdaHandler } from '@allmenning/adapter-lambda'
import { createGateway, EnvironmentVariableError, gatewayOptionsFromEnv, type RedisPackage } from '@allmenning/core'
import { datasetStoreFromEnv } from '@allmenning/datasets'
import { mcpServers } from '@allmenning/mcp'
// The root entry only (the JSON request log): no metrics library in the bundle.
import { observabilityFromEnv } from '@allmenning/observability'
import { builtInSources } from '@allmenning/sources'

// The datasets: the snapshot ALLMENNING_DATASETS_SNAPSHOT names (s3://bucket/prefix), copied to
// /tmp (the only disk a function may write) and fetched at once, in the init phase. Timers do
// not run between invocations, so the manifest is checked on a request that comes
// ALLMENNING_DATASETS_SNAPSHOT_CHECK_SECONDS (60) after the last check; its answer does not wait.
// Without the variable: a store with nothing loaded, whose operations answer 502 dataset_not_loaded.
const datasets = datasetStoreFromEnv(process.env, { checkOn: 'request', directory: '/tmp/allmenning-snapshot' })

// Built once per container, outside the handler, so warm invocations reuse the gateway and
// its in-memory cache instead of starting cold every time. SAM passes unset parameters as
// empty strings; builtInSources treats those as "use the real service".
// Rate limits, the cache (bounded in memory, or REDIS_URL shared with the limits and the single
// flight), the contact in the User-Agent and links: read as every example reads them. The client
// address is the event's source IP, so there is no proxy to trust; ALLMENNING_TRUST_PROXY is
// checked all the same and otherwise unused.
function servingWith(redis: RedisPackage | undefined): LambdaHandler {
  const fromEnv = gatewayOptionsFromEnv(process.env, { redis })
  const gateway = createGateway({
    sources: builtInSources(process.env),
    // Each source compiled when a request first needs it, not all 18 in the init phase: a cold
    // start answering one operation compiles one source. The built-in sources are checked by the
    // project's tests; a plugin added here should be checked with checkSource in its own.
    compileSources: 'on-first-use',
    ...fromEnv.gateway,
    // Every source as an MCP server as well (@allmenning/mcp): /mcp (the catalogue server) and
    // /{source}/mcp. Optional: ALLMENNING_MCP=off turns it off; to leave the MCP SDK out of the
    // bundle too, delete this line and the import (see docs/lambda.md).
    extensions: mcpOn() ? [mcpServers()] : [],
    datasets,
    // ALLMENNING_REQUEST_LOG=json: one JSON line per request, which CloudWatch Logs can query.
    observers: requestLog(),
  })
  return createLambdaHandler(gateway, { basePath: process.env.ALLMENNING_BASE_PATH })
}

// Made at import, in the init phase; a bad setting fails the init naming its variable.
// @keyv/redis (and the node-redis client inside it) is loaded only when REDIS_URL asks for it:
// it is a third of the code a cold start would otherwise evaluate, and most functions run
// without. It is imported without a top-level await, which would keep the bundle in three
// files (the handler, the code it imports, and Rolldown's helpers) instead of one: each file
// costs a cold start about half a millisecond to resolve, read and link. Until it has loaded
// (within the init phase as a rule), a request waits for it. Should the gateway not be made with
// it, the error fails the requests waiting, or ends the process if none is, as a failed init does.
const serving: LambdaHandler | Promise<LambdaHandler> = process.env.REDIS_URL
  ? import('@keyv/redis').then(servingWith)
  : servingWith(undefined)

// A cold start's first requests wait for the snapshot (at most ALLMENNING_DATASETS_WAIT_SECONDS,
// default 20, inside API Gateway's 29 s), so they answer from it rather than 502; once it has
// come, or failed (then the 502 says why), no request waits.
const waitMs = waitSeconds() * 1000
const firstSnapshot =
  'ready' in datasets
    ? Promise.race([
        datasets.ready.catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, waitMs).unref()),
      ])
    : undefined

/**
 * The Lambda entry point (`dist/handler.handler`), serving API Gateway REST and HTTP APIs and
 * ALB from the same function.
 *
 * @example
 * // template.yaml
 * // Handler: dist/handler.handler
 */
export const handler = (async (event: LambdaEvent, context?: unknown) => {
  const serve = typeof serving === 'function' ? serving : await serving
  if (firstSnapshot) await firstSnapshot
  return serve(event, context)
}) as LambdaHandler

function requestLog() {
  const { requestLog } = observabilityFromEnv(process.env)
  return requestLog ? [requestLog] : []
}

function mcpOn(): boolean {
  const value = process.env.ALLMENNING_MCP || 'on'
  if (value !== 'on' && value !== 'off') throw new EnvironmentVariableError('ALLMENNING_MCP', 'on or off', value)
  return value === 'on'
}

function waitSeconds(): number {
  const value = process.env.ALLMENNING_DATASETS_WAIT_SECONDS || '20'
  if (!/^\d+$/.test(value) || !(Number(value) > 0))
    throw new EnvironmentVariableError('ALLMENNING_DATASETS_WAIT_SECONDS', 'a whole number of seconds above 0', value)
  return Number(value)
}
