/**
 * `@allmenning/observability/opentelemetry`: OpenTelemetry spans of a gateway's requests and
 * upstream calls, through `@opentelemetry/api` alone. The host registers an SDK and exporter as
 * it likes; without one, nothing is recorded.
 *
 * @example
 * import { openTelemetryTracing } from '@allmenning/observability/opentelemetry'
 * // createGateway({ sources, observers: [openTelemetryTracing()] })
 *
 * @module
 */
export { openTelemetryTracing, type OpenTelemetryTracingOptions } from './opentelemetry-tracing.js'
