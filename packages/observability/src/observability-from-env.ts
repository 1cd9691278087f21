import type { GatewayObserver } from '@allmenning/core/extension'
import { EnvironmentVariableError } from '@allmenning/core'
import { jsonRequestLog } from './request-log/json-request-log.js'

/** What {@link observabilityFromEnv} read. */
export interface ObservabilityFromEnv {
  /** The path the host serves its metrics at (`ALLMENNING_METRICS_PATH`, `/metrics` by default); none for `off`. */
  metricsPath: string | undefined
  /** The JSON request log on standard output, when `ALLMENNING_REQUEST_LOG` is `json`; none by default. */
  requestLog: GatewayObserver | undefined
}

/**
 * Reads the examples' observability settings from the environment: `ALLMENNING_METRICS_PATH`
 * (the host's metrics path, `/metrics` by default, `off` for none) and `ALLMENNING_REQUEST_LOG`
 * (`json` for one JSON line per request on standard output, `off` by default). A bad value
 * throws an `EnvironmentVariableError` naming the variable.
 *
 * @example
 * const { metricsPath, requestLog } = observabilityFromEnv(process.env)
 * metricsPath // '/metrics'
 */
export function observabilityFromEnv(env: Record<string, string | undefined>): ObservabilityFromEnv {
  const path = env.ALLMENNING_METRICS_PATH || '/metrics'
  if (path !== 'off' && !/^\/[\w\-./]*$/.test(path))
    throw new EnvironmentVariableError('ALLMENNING_METRICS_PATH', 'a path starting with / or off', path)
  const log = env.ALLMENNING_REQUEST_LOG || 'off'
  if (log !== 'json' && log !== 'off') throw new EnvironmentVariableError('ALLMENNING_REQUEST_LOG', 'json or off', log)
  return { metricsPath: path === 'off' ? undefined : path, requestLog: log === 'json' ? jsonRequestLog() : undefined }
}
