import { answerFromCache, cacheEntry } from '../pipeline/cached-answer.js'
import { cacheKey } from '../cache/cache-key.js'
import { datasetsOf } from '../dataset/dataset-generations.js'
import type { DatasetDefinition } from '../plugin/define-dataset.js'
import { defineRoute, type RouteDefinition } from '../routing/define-route.js'
import type { Catalog } from '../compile/catalog.js'
import type { InvokeOperation } from '../operations/invoke-operation.js'
import type { OperationCallDeps } from '../pipeline/operation-call.js'
import { searchTtlSeconds, type SearchOptions } from '../search/cross-source-search.js'
import { loadSearchingSources, searchedDatasets } from '../search/search-route.js'
import { bundleTtlSeconds, placeBundle, type PlaceOptions } from './place-bundle.js'
import {
  coordinateSchemas,
  parseCoordinates,
  placeBundleQuery,
  placeSearchQuery,
  requestedFields,
} from './place-query.js'
import { placeSearch } from './place-search.js'

/** What the place routes are made from: their slice of the gateway's context. */
export interface PlaceRoutesContext {
  catalog: Catalog
  /** The cached-answer pipeline a place search's and a bundle's whole answers are cached through. */
  pipeline: OperationCallDeps
  /** The gateway's options the place routes read: a place search is a search, with its limits. */
  options: { search?: SearchOptions; places?: PlaceOptions }
  /** Calls an operation in process, as a place search and a bundle do. */
  invoke: InvokeOperation
}

/**
 * `/steder/sok` (places by name) and `/steder/{lat}/{lon}` (a point's data bundle), each
 * cached as a whole; the operations they call are called in process.
 */
export function placeRoutes(ctx: PlaceRoutesContext): RouteDefinition[] {
  const { catalog, pipeline } = ctx
  const providers = catalog.places
  // Cached as a whole, so under the generations of every dataset the operations they call may
  // read; found on the first answer, which compiles those sources if they compile on first use.
  let searchDatasets: DatasetDefinition[] | undefined
  let bundleDatasets: DatasetDefinition[] | undefined
  // The sources whose operations fill the fields: what a bundle reads.
  const providerSources = [...new Set([...providers.values()].map((p) => p.source.id))]
  return [
    defineRoute({
      name: 'place_search',
      path: '/steder/sok',
      summary: 'Places by address or place name, each with coordinates and a link to its data bundle',
      description:
        'Finds addresses and place names matching the text, each with its WGS84 coordinates and the link to the data bundle of that point.',
      tag: 'Places',
      query: placeSearchQuery,
      cacheKey: ({ params, links }) =>
        cacheKey(links, 'places', 'search', JSON.stringify([params.q.replace(/\s+/g, ' '), params.limit])),
      expensive: true,
      prepare: () => loadSearchingSources(ctx),
      answer: ({ params, links, key }) =>
        answerFromCache(
          pipeline,
          key,
          async () => {
            const call = async (source: { id: string }, name: string, parameters: Record<string, unknown>) =>
              (await ctx.invoke(source.id, name, parameters, links)).data
            const answer = await placeSearch(catalog, params, ctx.options.search ?? {}, call, links)
            return cacheEntry(answer, searchTtlSeconds(answer))
          },
          (searchDatasets ??= searchedDatasets(ctx)),
        ),
    }),
    defineRoute({
      name: 'place',
      path: '/steder/{lat}/{lon}',
      summary: 'The data bundle of a WGS84 point: one section, or the fields asked for',
      description:
        'What the sources know about a point, gathered in one answer: one section, or only the fields asked for.',
      tag: 'Places',
      pathParameters: coordinateSchemas,
      query: placeBundleQuery(providers),
      resolve: (path) => void parseCoordinates(path),
      prepare: () => catalog.load(providerSources),
      cacheKey: ({ path, params, links }) => {
        const { lat, lon } = parseCoordinates(path)
        return cacheKey(links, 'places', 'bundle', JSON.stringify([lat, lon, params.section, params.fields ?? null]))
      },
      expensive: true,
      answer: ({ params, path, links, key }) =>
        answerFromCache(
          pipeline,
          key,
          async () => {
            const bundle = await placeBundle({
              point: parseCoordinates(path),
              section: params.section,
              fields: params.fields === undefined ? undefined : requestedFields(params.fields),
              providers,
              options: ctx.options.places ?? {},
              call: (source, name, parameters) => ctx.invoke(source.id, name, parameters, links),
              links,
            })
            return cacheEntry(bundle, bundleTtlSeconds(bundle, providers))
          },
          (bundleDatasets ??= datasetsOf([...providers.values()].map(({ operation }) => operation))),
        ),
    }),
  ]
}
