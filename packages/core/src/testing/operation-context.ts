import {
  createUpstreamClient,
  datasetNotLoaded,
  type OperationContext,
  type UpstreamClient,
  type UpstreamDefinition,
} from '@allmenning/core/source'
import type { DatasetStore } from '@allmenning/core/extension'

/** An upstream as a test reaches it: its id and name (what 502 messages say) and where the fake listens. */
export interface TestUpstreamTarget {
  id: string
  name: string
  baseUrl: string
  timeoutMs?: number
}

/**
 * An upstream client for unit tests of code below an operation (a feed parser, a paging
 * helper): the client the core would hand out for `upstream`, pointed at `baseUrl`.
 * `onCall` hears every URL called, as provenance does.
 *
 * @example
 * const client = testUpstreamClient(domstolSite, fake.baseUrl)
 * const { body } = await client.getText('/sitemap.xml') // from the fake, as ctx.upstream(domstolSite) would
 */
export function testUpstreamClient(
  upstream: Pick<UpstreamDefinition, 'id' | 'name'> & { timeoutMs?: number },
  baseUrl: string,
  onCall?: (url: string) => void,
): UpstreamClient {
  return createUpstreamClient(
    {
      id: upstream.id,
      name: upstream.name,
      baseUrl,
      timeoutMs: upstream.timeoutMs ?? 2000,
      userAgent: 'allmenning-test',
      maxBodyBytes: 5_000_000,
    },
    onCall,
  )
}

/**
 * An operation context for unit tests, as the core builds one per call: each upstream is
 * reached at the given base URL (a local fake), and `calls` collects every URL called through
 * them, as the core does for provenance. Give `upstream` for a source with one upstream, or
 * `upstreams` for several (each reached by its id, as `ctx.upstream(handle)` does). Datasets
 * are read from `datasets` when given; without it every read answers `dataset_not_loaded`.
 *
 * @example
 * const ctx = testOperationContext({ source: 'avinor', operation: 'get_flights', upstream: { ...avinorApi, baseUrl: fake.baseUrl } })
 * await getFlights.run(params, ctx)
 * expect(ctx.calls).toHaveLength(1)
 */
export function testOperationContext(options: {
  source: string
  operation: string
  upstream?: TestUpstreamTarget
  upstreams?: TestUpstreamTarget[]
  datasets?: DatasetStore
}): OperationContext & { calls: string[] } {
  const calls: string[] = []
  const targets = [...(options.upstream ? [options.upstream] : []), ...(options.upstreams ?? [])]
  if (targets.length === 0) throw new TypeError('testOperationContext needs `upstream` or `upstreams`')
  const clients = new Map(
    targets.map((target) => [target.id, testUpstreamClient(target, target.baseUrl, (url) => void calls.push(url))]),
  )
  return {
    source: options.source,
    operation: options.operation,
    upstream(handle) {
      // With one upstream any handle reaches it, as unit tests of shared helpers pass their own.
      const client = clients.get(handle.id) ?? (clients.size === 1 ? clients.values().next().value : undefined)
      if (!client)
        throw new TypeError(`The test context has no upstream ${handle.id}; it has ${[...clients.keys()].join(', ')}`)
      return client
    },
    dataset(dataset) {
      const reader = options.datasets?.reader(dataset)
      if (!reader) throw datasetNotLoaded(dataset, options.datasets)
      return reader
    },
    calls,
  }
}
