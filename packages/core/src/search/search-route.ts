import { cacheEntry, answerFromCache } from '../pipeline/cached-answer.js'
import { cacheKey } from '../cache/cache-key.js'
import { datasetsOf } from '../dataset/dataset-generations.js'
import type { DatasetDefinition } from '../plugin/define-dataset.js'
import { defineRoute, type RouteDefinition } from '../routing/define-route.js'
import type { GatewayContext } from '../gateway-context.js'
import { crossSourceSearch, searchTtlSeconds } from './cross-source-search.js'
import { searchQuery } from './search-query.js'

/** The sources that search for entities, whose operations a search calls in process. */
export function searchingSources(ctx: Pick<GatewayContext, 'catalog'>) {
  return ctx.catalog.sources.filter((s) => s.definition.entitySearch)
}

/**
 * Loads the searching sources' deferred operations: what a search (and a place search) reads,
 * for their routes' `prepare`. Undefined when they are all there.
 */
export function loadSearchingSources(ctx: Pick<GatewayContext, 'catalog'>): Promise<void> | undefined {
  return ctx.catalog.load(searchingSources(ctx).map((s) => s.id))
}

/**
 * Every dataset the searching sources' operations may read: what a search's answer (and a
 * place search's) is cached under. Compiles those sources where sources compile on first use,
 * so call it on the first answer, not when the route is made, and load them first (`prepare`).
 */
export function searchedDatasets(ctx: Pick<GatewayContext, 'catalog'>): DatasetDefinition[] {
  return datasetsOf(searchingSources(ctx).flatMap((s) => [...s.operations.values()]))
}

/**
 * `/sok/alle`, cross-source search, cached as a whole. Its key is the text with its white
 * space folded, and everything else that shapes the answer; case is kept, because the answer
 * echoes the text. Each source's search calls its operations in process.
 */
export function searchRoute(ctx: GatewayContext): RouteDefinition {
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
