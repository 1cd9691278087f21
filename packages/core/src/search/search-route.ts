import { cacheEntry, answerFromCache } from '../pipeline/cached-answer.js'
import { cacheKey } from '../cache/cache-key.js'
import { datasetsOf } from '../dataset/dataset-generations.js'
import type { DatasetDefinition } from '../plugin/define-dataset.js'
import { defineRoute, type RouteDefinition } from '../routing/define-route.js'
import type { Catalog } from '../compile/catalog.js'
import type { Links } from '../http/links.js'
import type { InvokeOperation } from '../operations/invoke-operation.js'
import type { OperationCallDeps } from '../pipeline/operation-call.js'
import { crossSourceSearch, searchTtlSeconds, type SearchOptions } from './cross-source-search.js'
import { searchQuery } from './search-query.js'

/** What the search route is made from: its slice of the gateway's context. */
export interface SearchContext {
  catalog: Catalog
  /** The cached-answer pipeline the whole search's answer is cached through. */
  pipeline: OperationCallDeps
  /** The gateway's options the search reads. */
  options: { search?: SearchOptions }
  /** Hears a source's search that failed unexpectedly; the search answers without it. */
  resolved: { onError(error: unknown, kind: 'internal'): void }
  /** Calls an operation in process, as each source's search does. */
  invoke: InvokeOperation
  /** The `wiki` link of the gateway as a whole. */
  documentation(links: Links): string
}

/** The sources that search for entities, whose operations a search calls in process. */
export function searchingSources(ctx: Pick<SearchContext, 'catalog'>) {
  return ctx.catalog.sources.filter((s) => s.definition.entitySearch)
}

/**
 * Loads the searching sources' deferred operations: what a search (and a place search) reads,
 * for their routes' `prepare`. Undefined when they are all there.
 */
export function loadSearchingSources(ctx: Pick<SearchContext, 'catalog'>): Promise<void> | undefined {
  return ctx.catalog.load(searchingSources(ctx).map((s) => s.id))
}

/**
 * Every dataset the searching sources' operations may read: what a search's answer (and a
 * place search's) is cached under. Compiles those sources where sources compile on first use,
 * so call it on the first answer, not when the route is made, and load them first (`prepare`).
 */
export function searchedDatasets(ctx: Pick<SearchContext, 'catalog'>): DatasetDefinition[] {
  return datasetsOf(searchingSources(ctx).flatMap((s) => [...s.operations.values()]))
}

/**
 * `/sok/alle`, cross-source search, cached as a whole. Its key is the text with its white
 * space folded, and everything else that shapes the answer; case is kept, because the answer
 * echoes the text. Each source's search calls its operations in process.
 */
export function searchRoute(ctx: SearchContext): RouteDefinition {
  const { catalog, pipeline, resolved } = ctx
  // Cached as a whole, so under the generations of every dataset the searches' operations may
  // read; found on the first answer, which compiles those sources if they compile on first use.
  let datasets: DatasetDefinition[] | undefined
  return defineRoute({
    name: 'search',
    path: '/sok/alle',
    summary: 'Cross-source search: sources by name and topic, entities (companies, airports, ...) by name or number',
    description:
      'Finds sources whose name or topic matches the text, and entities by name or number through the sources that search for them.',
    tag: 'Search',
    query: searchQuery,
    cacheKey: ({ params, links }) =>
      cacheKey(
        links,
        'search',
        JSON.stringify([params.q.replace(/\s+/g, ' '), params.mode, params.limit, params.sources ?? null]),
      ),
    expensive: true,
    prepare: () => loadSearchingSources(ctx),
    answer: ({ params, links, key }) =>
      answerFromCache(
        pipeline,
        key,
        async () => {
          const parts = {
            catalog,
            options: ctx.options.search ?? {},
            onError: (error: unknown) => resolved.onError(error, 'internal'),
            call: async (source: { id: string }, name: string, parameters: Record<string, unknown>) =>
              (await ctx.invoke(source.id, name, parameters, links)).data,
          }
          const answer = await crossSourceSearch(parts, params, links, ctx.documentation(links))
          return cacheEntry(answer, searchTtlSeconds(answer))
        },
        (datasets ??= searchedDatasets(ctx)),
      ),
  })
}
