import { Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { GatewayObserver, ObservedGateway } from '@allmenning/core/extension'
import { methodLabel } from '../method-label.js'
import { TalliedCounter, TalliedHistogram } from './tallied-metrics.js'

/** Options of {@link prometheusMetrics}. */
export interface PrometheusMetricsOptions {
  /** Where the metrics are registered; a registry of their own by default, so two gateways never share counts. */
  registry?: Registry
  /** Prefix of every metric's name; `allmenning_` by default. */
  prefix?: string
  /** Bucket bounds of the request latency histogram, in seconds. */
  requestBuckets?: number[]
  /** Bucket bounds of the upstream call latency histogram, in seconds. */
  upstreamBuckets?: number[]
}

/** What a scrape answers: the text exposition format, with its content type. */
export interface MetricsScrape {
  contentType: string
  body: string
}

/** The metrics of one gateway: its observer, and the scrape a host serves at the path it chooses. */
export interface PrometheusMetrics {
  /** Give it to `createGateway({ observers: [metrics.observer] })`. */
  observer: GatewayObserver
  /** The registry the metrics live in, for a host adding its own or Node's default metrics. */
  registry: Registry
  /** The current metrics, to answer a `GET` at the host's metrics path with. */
  scrape(): Promise<MetricsScrape>
}

const defaultRequestBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
const defaultUpstreamBuckets = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]
const breakerValues = { closed: 0, open: 1, 'half-open': 2 } as const

/**
 * Prometheus metrics of a gateway, through prom-client: requests by route, method, status and
 * source with their latency; upstream calls, failures (timeouts among them) and latency by
 * upstream, and each upstream's breaker state; cache hits, misses and stale answers; single-flight
 * joins; rate-limit refusals; the dataset versions loaded. Every label value comes from the
 * gateway's own tables (route templates, source and upstream ids), never from what a client
 * sends, so a scan of random paths cannot grow the series. Serve `scrape()` where you choose,
 * and keep that path from the public (a proxy rule, another port).
 *
 * @example
 * import express from 'express'
 * import { createGateway } from '@allmenning/core'
 * import { builtInSources } from '@allmenning/sources'
 * import { prometheusMetrics } from '@allmenning/observability/prometheus'
 *
 * const metrics = prometheusMetrics()
 * const gateway = createGateway({ sources: builtInSources(process.env), observers: [metrics.observer] })
 * const app = express()
 * app.get('/metrics', async (_req, res) => {
 *   const { contentType, body } = await metrics.scrape()
 *   res.type(contentType).send(body)
 * })
 */
export function prometheusMetrics(options: PrometheusMetricsOptions = {}): PrometheusMetrics {
  const registry = options.registry ?? new Registry()
  const prefix = options.prefix ?? 'allmenning_'
  const registers = [registry]
  let gateway: ObservedGateway | undefined

  // What every request records, in plain fields read at a scrape (see tallied-metrics.ts).
  const requests = new TalliedCounter(
    `${prefix}requests_total`,
    'Requests answered, by route template, method, status and source (empty off the operation routes).',
    registry,
  )
  const requestSeconds = new TalliedHistogram(
    `${prefix}request_duration_seconds`,
    'Time to answer a request, by route template, method and source.',
    options.requestBuckets ?? defaultRequestBuckets,
    registry,
  )
  const upstreamCalls = new Counter({
    name: `${prefix}upstream_calls_total`,
    help: 'Calls to upstream services, by upstream and outcome (ok, error, timeout).',
    labelNames: ['upstream', 'outcome'] as const,
    registers,
  })
  const upstreamErrors = new Counter({
    name: `${prefix}upstream_errors_total`,
    help: 'Failed upstream calls, by upstream and failure (timeout, unavailable, status, invalid_response, resting, busy).',
    labelNames: ['upstream', 'failure'] as const,
    registers,
  })
  const upstreamSeconds = new Histogram({
    name: `${prefix}upstream_call_duration_seconds`,
    help: 'Time of one upstream call, by upstream.',
    labelNames: ['upstream'] as const,
    buckets: options.upstreamBuckets ?? defaultUpstreamBuckets,
    registers,
  })
  const breakerState = new Gauge({
    name: `${prefix}upstream_breaker_state`,
    help: "State of an upstream's circuit breaker: 0 closed, 1 open (the upstream is rested), 2 half-open (one probe call).",
    labelNames: ['upstream'] as const,
    registers,
  })
  const breakerOpens = new Counter({
    name: `${prefix}upstream_breaker_opens_total`,
    help: "Times an upstream's circuit breaker opened.",
    labelNames: ['upstream'] as const,
    registers,
  })
  const cacheLookups = new TalliedCounter(
    `${prefix}cache_lookups_total`,
    'Lookups of an operation answer, by source and outcome: hit (fresh in a cache), miss (made by an upstream call), stale (an expired copy served because the upstream failed).',
    registry,
  )
  const joins = new Counter({
    name: `${prefix}single_flight_joins_total`,
    help: 'Lookups answered by an identical upstream call already in flight (single flight), by source.',
    labelNames: ['source'] as const,
    registers,
  })
  const refusals = new Counter({
    name: `${prefix}rate_limit_refusals_total`,
    help: 'Requests refused with a 429, by the quota they went over (default, expensive).',
    labelNames: ['quota'] as const,
    registers,
  })
  new Gauge({
    name: `${prefix}dataset_loaded`,
    help: 'Whether a dataset the gateway reads has a version loaded (1) or not (0).',
    labelNames: ['dataset'] as const,
    registers,
    collect() {
      this.reset()
      for (const { id, version } of datasetsNow()) this.set({ dataset: id }, version ? 1 : 0)
    },
  })
  new Gauge({
    name: `${prefix}dataset_version_info`,
    help: 'The version of each loaded dataset: when it was loaded and the publisher date, as labels; always 1.',
    labelNames: ['dataset', 'loaded_at', 'published_at'] as const,
    registers,
    collect() {
      this.reset()
      for (const { id, version } of datasetsNow()) {
        if (version) this.set({ dataset: id, loaded_at: version.loadedAt, published_at: version.publishedAt ?? '' }, 1)
      }
    },
  })
  new Gauge({
    name: `${prefix}dataset_rows`,
    help: 'Rows of the loaded version of each dataset.',
    labelNames: ['dataset'] as const,
    registers,
    collect() {
      this.reset()
      for (const { id, version } of datasetsNow()) if (version) this.set({ dataset: id }, version.rows)
    },
  })

  const sourceStates = ['ok', 'degraded', 'failing', 'not_configured'] as const
  new Gauge({
    name: `${prefix}source_state`,
    help: "Each source's state as /api/v1/health reports it: 1 on the series of its state (ok, degraded, failing, not_configured), 0 on the others.",
    labelNames: ['source', 'state'] as const,
    registers,
    collect() {
      this.reset()
      for (const { id, state } of gateway?.health() ?? [])
        for (const each of sourceStates) this.set({ source: id, state: each }, each === state ? 1 : 0)
    },
  })
  new Gauge({
    name: `${prefix}source_last_ok_timestamp_seconds`,
    help: 'When each source last made a good answer from its upstreams or datasets, in Unix seconds; absent until it has.',
    labelNames: ['source'] as const,
    registers,
    collect() {
      this.reset()
      for (const { id, last_ok_at } of gateway?.health() ?? [])
        if (last_ok_at) this.set({ source: id }, Date.parse(last_ok_at) / 1000)
    },
  })

  /** The datasets as the store has them now; none before the gateway is made. */
  function datasetsNow() {
    return gateway?.datasets() ?? []
  }

  const observer: GatewayObserver = {
    attached(observed) {
      gateway = observed
    },
    requestFinished(r) {
      const method = methodLabel(r.method)
      const source = r.source ?? ''
      const route = r.route ?? 'unmatched'
      const status = r.status ?? 0
      ;(
        requestSeconds.find(route, source, method) ??
        requestSeconds.add({ route, method, source }, route, source, method)
      ).observe((r.durationMs ?? 0) / 1000)
      ;(
        requests.find(route, source, method, status) ??
        requests.add({ route, method, status: String(status), source }, route, source, method, status)
      ).value++
    },
    upstreamCallFinished(call) {
      upstreamCalls.inc({ upstream: call.upstream, outcome: call.outcome ?? 'error' })
      if (call.outcome !== 'ok') upstreamErrors.inc({ upstream: call.upstream, failure: call.failure ?? 'unknown' })
      upstreamSeconds.observe({ upstream: call.upstream }, (call.durationMs ?? 0) / 1000)
    },
    cacheLookup(lookup) {
      ;(
        cacheLookups.find(lookup.source, lookup.outcome) ??
        cacheLookups.add({ source: lookup.source, outcome: lookup.outcome }, lookup.source, lookup.outcome)
      ).value++
      if (lookup.joined) joins.inc({ source: lookup.source })
    },
    breakerChanged({ upstream, state }) {
      breakerState.set({ upstream }, breakerValues[state])
      if (state === 'open') breakerOpens.inc({ upstream })
    },
    rateLimited({ quota }) {
      refusals.inc({ quota })
    },
  }

  return {
    observer,
    registry,
    async scrape() {
      return { contentType: registry.contentType, body: await registry.metrics() }
    },
  }
}
