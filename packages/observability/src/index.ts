/**
 * `@allmenning/observability`: for host apps that want to see what their gateway does. Each
 * concern is an observer given to `createGateway({ observers })`, in an entry of its own so a
 * host loads only what it uses: the JSON request log here (no dependency),
 * Prometheus metrics in `@allmenning/observability/prometheus` (prom-client), OpenTelemetry
 * spans in `@allmenning/observability/opentelemetry` (`@opentelemetry/api`).
 *
 * @example
 * import { jsonRequestLog } from '@allmenning/observability'
 * // createGateway({ sources, observers: [jsonRequestLog()] })
 *
 * @module
 */
export { jsonRequestLog, type JsonRequestLogOptions, type RequestLogLine } from './request-log/json-request-log.js'
export { observabilityFromEnv, type ObservabilityFromEnv } from './observability-from-env.js'
