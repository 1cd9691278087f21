import {
  context,
  propagation,
  ProxyTracerProvider,
  SpanKind,
  SpanStatusCode,
  trace,
  type Span,
  type Tracer,
} from '@opentelemetry/api'
import type { GatewayObserver, ObservedRequest, ObservedUpstreamCall } from '@allmenning/core/extension'
import { methodLabel } from '../method-label.js'

/** Options of {@link openTelemetryTracing}. */
export interface OpenTelemetryTracingOptions {
  /** The tracer to start spans with; `trace.getTracer('@allmenning/observability')` by default. */
  tracer?: Tracer
}

/** Host and port of an upstream URL, as `server.address` and `server.port` name them. */
function serverOf(url: string): { address: string; port: number } | undefined {
  try {
    const parsed = new URL(url)
    const port = parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80
    return { address: parsed.hostname, port }
  } catch {
    return undefined
  }
}

/** What the API's tracer provider delegates to while no SDK is registered: its no-op provider. */
const withoutSdk = new ProxyTracerProvider().getDelegate()

/**
 * OpenTelemetry spans through `@opentelemetry/api` alone: a server span per request and a
 * client span per upstream call, the call's span a child of the span of the request that made
 * it, attributes after OpenTelemetry's HTTP conventions (`http.route`,
 * `http.response.status_code`, `server.address`, `url.full` with secrets masked) and the
 * gateway's own (`allmenning.source`, `allmenning.operation`, `allmenning.cache`,
 * `allmenning.upstream`). Without an SDK registered (and no `tracer` given) it does nothing at
 * all, not even the API's no-op spans; an SDK registered later is used within a second. With one, an incoming `traceparent` continues the caller's trace when a
 * propagator is registered.
 *
 * @example
 * import { createGateway } from '@allmenning/core'
 * import { builtInSources } from '@allmenning/sources'
 * import { openTelemetryTracing } from '@allmenning/observability/opentelemetry'
 *
 * const gateway = createGateway({ sources: builtInSources(process.env), observers: [openTelemetryTracing()] })
 */
export function openTelemetryTracing(options: OpenTelemetryTracingOptions = {}): GatewayObserver {
  const tracer = options.tracer ?? trace.getTracer('@allmenning/observability')
  const spans = new WeakMap<ObservedRequest | ObservedUpstreamCall, Span>()
  // Spans started and not yet ended.
  let open = 0
  // Whether spans are recorded: a tracer was given, or an SDK is registered. Asking the API
  // checks its global's version on every call, so the answer is kept, and asked again at the
  // first request once a second has passed (an SDK registered after the gateway was made is
  // used from then on). The second is a timer's, not the clock's: no request reads the time
  // for it, and the timer keeps no process alive.
  let recording = true
  let stale = true
  const recordingNow = (): boolean => {
    if (options.tracer !== undefined) return true
    if (!stale) return recording
    const provider = trace.getTracerProvider()
    recording = !(provider instanceof ProxyTracerProvider) || provider.getDelegate() !== withoutSdk
    stale = false
    setTimeout(() => {
      stale = true
    }, 1000).unref()
    return recording
  }

  return {
    // Without an SDK the gateway neither times nor describes a request for this observer.
    observing: recordingNow,
    requestStarted(r) {
      if (!recordingNow()) return
      const method = methodLabel(r.method)
      const parent = propagation.extract(context.active(), r.request.headers)
      const span = tracer.startSpan(
        method,
        { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'url.path': r.request.path } },
        parent,
      )
      spans.set(r, span)
      open++
    },
    requestFinished(r) {
      // Without an SDK no span is started: nothing to look up.
      if (open === 0) return
      const span = spans.get(r)
      if (!span) return
      // Kept in the map: a call made after the answer (a refresh in the background) is still its child.
      open--
      if (r.route) {
        span.updateName(`${methodLabel(r.method)} ${r.route}`)
        span.setAttribute('http.route', r.route)
      }
      if (r.status !== undefined) span.setAttribute('http.response.status_code', r.status)
      if (r.source) span.setAttributes({ 'allmenning.source': r.source, 'allmenning.operation': r.operation ?? '' })
      if (r.cache)
        span.setAttributes({ 'allmenning.cache': r.cache, 'allmenning.single_flight_joined': r.joined === true })
      // Server spans are errors for a 5xx only: a 4xx is the client's mistake, answered as meant.
      if ((r.status ?? 0) >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
      span.end()
    },
    upstreamCallStarted(call) {
      if (!recordingNow()) return
      const parentSpan = call.request && spans.get(call.request)
      const parent = parentSpan ? trace.setSpan(context.active(), parentSpan) : context.active()
      const server = serverOf(call.url)
      const span = tracer.startSpan(
        call.method,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'http.request.method': call.method,
            'url.full': call.url,
            ...(server ? { 'server.address': server.address, 'server.port': server.port } : {}),
            'allmenning.upstream': call.upstream,
            'allmenning.source': call.source,
            'allmenning.operation': call.operation,
          },
        },
        parent,
      )
      spans.set(call, span)
      open++
    },
    upstreamCallFinished(call) {
      if (open === 0) return
      const span = spans.get(call)
      if (!span) return
      spans.delete(call)
      open--
      if (call.status !== undefined) span.setAttribute('http.response.status_code', call.status)
      if (call.outcome !== 'ok') {
        span.setAttribute('error.type', call.failure ?? 'error')
        span.setStatus({ code: SpanStatusCode.ERROR, message: call.failure ?? 'error' })
      }
      span.end()
    },
  }
}
