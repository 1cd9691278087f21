import { SpanKind, SpanStatusCode } from '@opentelemetry/api'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { get, shopGateway, startShopUpstreams } from '../testing/shop-fixture.js'
import { openTelemetryTracing } from './opentelemetry-tracing.js'

let fake: Awaited<ReturnType<typeof startShopUpstreams>>
const exporter = new InMemorySpanExporter()
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
const tracer = provider.getTracer('test')

beforeAll(async () => {
  fake = await startShopUpstreams()
})
afterAll(async () => {
  await provider.shutdown()
  await fake.close()
})
beforeEach(() => exporter.reset())

const operation = (name: string) => `/api/v1/kilder/shop/${name}`
const byKind = (kind: SpanKind) => exporter.getFinishedSpans().filter((span) => span.kind === kind)

describe('openTelemetryTracing', () => {
  it('makes a server span per request and a client span per upstream call, the call a child of its request', async () => {
    const gateway = shopGateway(fake, { observers: [openTelemetryTracing({ tracer })], rateLimit: undefined })
    expect((await get(gateway, operation('stock_items'), 'kind=x')).status).toBe(200)
    expect((await get(gateway, operation('depot_items'), 'kind=x')).status).toBe(200)

    const servers = byKind(SpanKind.SERVER)
    const clients = byKind(SpanKind.CLIENT)
    expect(servers).toHaveLength(2)
    expect(clients).toHaveLength(2)
    for (const [i, upstream] of ['stock', 'depot'].entries()) {
      const server = servers[i]!
      const client = clients.find((span) => span.attributes['allmenning.upstream'] === upstream)!
      expect(client.parentSpanContext?.spanId).toBe(server.spanContext().spanId)
      expect(client.spanContext().traceId).toBe(server.spanContext().traceId)
    }
    expect(servers[0]!.name).toBe('GET /api/v1/kilder/{source}/{operation}')
    expect(servers[0]!.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/api/v1/kilder/{source}/{operation}',
      'http.response.status_code': 200,
      'url.path': '/api/v1/kilder/shop/stock_items',
      'allmenning.source': 'shop',
      'allmenning.operation': 'stock_items',
      'allmenning.cache': 'miss',
    })
    const stock = clients.find((span) => span.attributes['allmenning.upstream'] === 'stock')!
    expect(stock.name).toBe('GET')
    expect(stock.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.response.status_code': 200,
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(fake.baseUrl).port),
      'url.full': `${fake.baseUrl}/stock/items?kind=x`,
      'allmenning.source': 'shop',
      'allmenning.operation': 'stock_items',
    })
    expect(stock.status.code).toBe(SpanStatusCode.UNSET)
  })

  it('makes no client span for a cache hit, and marks a failed call and its 502 as errors', async () => {
    const gateway = shopGateway(fake, { observers: [openTelemetryTracing({ tracer })], rateLimit: undefined })
    await get(gateway, operation('stock_items'), 'kind=y')
    exporter.reset()
    await get(gateway, operation('stock_items'), 'kind=y')
    expect(byKind(SpanKind.CLIENT)).toHaveLength(0)
    expect(byKind(SpanKind.SERVER)[0]!.attributes['allmenning.cache']).toBe('hit')

    exporter.reset()
    expect((await get(gateway, operation('warehouse_items'))).status).toBe(502)
    const [client] = byKind(SpanKind.CLIENT)
    const [server] = byKind(SpanKind.SERVER)
    expect(client!.parentSpanContext?.spanId).toBe(server!.spanContext().spanId)
    expect(client!.attributes['error.type']).toBe('timeout')
    expect(client!.status.code).toBe(SpanStatusCode.ERROR)
    expect(server!.attributes['http.response.status_code']).toBe(502)
    expect(server!.status.code).toBe(SpanStatusCode.ERROR)
  })

  it('records nothing and answers as usual without an SDK: the API tracer does nothing', async () => {
    const gateway = shopGateway(fake, { observers: [openTelemetryTracing()], rateLimit: undefined })
    expect((await get(gateway, operation('depot_items'), 'kind=z')).status).toBe(200)
    expect(exporter.getFinishedSpans()).toHaveLength(0)
  })
})

describe('openTelemetryTracing without a tracer given', () => {
  it('says it is not observing while no SDK is registered, so the gateway records no request for it', async () => {
    const { trace } = await import('@opentelemetry/api')
    expect(openTelemetryTracing().observing?.()).toBe(false)
    // Given a tracer, it records whatever the API has registered.
    expect(openTelemetryTracing({ tracer: trace.getTracer('given') }).observing?.()).toBe(true)
    expect(trace.setGlobalTracerProvider(provider)).toBe(true)
    try {
      expect(openTelemetryTracing().observing?.()).toBe(true)
    } finally {
      trace.disable()
    }
  })

  it('starts no span, not even a no-op one, until an SDK is registered, and records within a second of it', async () => {
    const { ProxyTracer, trace } = await import('@opentelemetry/api')
    const started = vi.spyOn(ProxyTracer.prototype, 'startSpan')
    const gateway = shopGateway(fake, { observers: [openTelemetryTracing()], rateLimit: undefined })
    try {
      expect((await get(gateway, operation('stock_items'), 'kind=before')).status).toBe(200)
      expect(started).not.toHaveBeenCalled()
      expect(trace.setGlobalTracerProvider(provider)).toBe(true)
      await new Promise((resolve) => setTimeout(resolve, 1_050))
      expect((await get(gateway, operation('stock_items'), 'kind=after')).status).toBe(200)
      expect(byKind(SpanKind.SERVER).map((span) => span.name)).toEqual(['GET /api/v1/kilder/{source}/{operation}'])
      expect(byKind(SpanKind.CLIENT)).toHaveLength(1)
    } finally {
      started.mockRestore()
      trace.disable()
    }
  })
})
