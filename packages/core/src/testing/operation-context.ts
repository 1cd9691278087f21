import { createUpstreamClient, type OperationContext } from '@allmenning/core'

/**
 * An operation context for unit tests, as the core builds one per call: its upstream is the
 * given base URL (a local fake), and `calls` collects every URL called through it, as the
 * core does for provenance.
 *
 * @example
 * const ctx = testOperationContext({ source: 'avinor', operation: 'get_flights', upstream: { id: 'avinor', name: 'Avinor flight data', baseUrl } })
 * await getFlights.run(params, ctx)
 */
export function testOperationContext(options: {
  source: string
  operation: string
  upstream: { id: string; name: string; baseUrl: string }
}): OperationContext & { calls: string[] } {
  const calls: string[] = []
  const client = createUpstreamClient(
    { ...options.upstream, timeoutMs: 2000, userAgent: 'allmenning-test', maxBodyBytes: 5_000_000 },
    (url) => void calls.push(url),
  )
  return { source: options.source, operation: options.operation, upstream: () => client, calls }
}
