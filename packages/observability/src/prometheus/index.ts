/**
 * `@allmenning/observability/prometheus`: Prometheus metrics of a gateway through prom-client,
 * an observer plus the scrape a host serves at the path it chooses. Only this entry loads
 * prom-client.
 *
 * @example
 * import { prometheusMetrics } from '@allmenning/observability/prometheus'
 * const metrics = prometheusMetrics()
 * // createGateway({ sources, observers: [metrics.observer] }); serve metrics.scrape() at /metrics
 *
 * @module
 */
export {
  prometheusMetrics,
  type MetricsScrape,
  type PrometheusMetrics,
  type PrometheusMetricsOptions,
} from './prometheus-metrics.js'
