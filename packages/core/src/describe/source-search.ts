import * as v from 'valibot'
import type { RouteParameters } from '../http/define-route.js'
import type { Catalog } from '../compile/catalog.js'
import type { CompiledSource } from '../compile/compile-source.js'
import { sourceDescriptor } from './descriptors.js'
import { GatewayError } from '../http/gateway-error.js'
import type { Links } from '../http/links.js'
import { matchTierCount, rankByName, type Named } from '../text/rank-by-name.js'
import { buildMeta } from '../pipeline/meta.js'

/** Query parameters of `/api/v1/sok/alle` (spec 4.1). */
export const searchQuery = {
  q: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200), v.description('The search text.')),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10), v.description('Maximum total results.')), 5),
  sources: v.optional(v.pipe(v.string(), v.maxLength(500), v.description('Comma-separated source ids to search.'))),
  mode: v.optional(
    v.pipe(v.picklist(['auto', 'source_discovery', 'entities', 'all']), v.description('auto routes by itself; source_discovery searches the catalogue only; entities searches entities only; all does both.')),
    'auto',
  ),
}

/** Parameters of `/api/v1/sok/alle`, validated. */
export type SearchParameters = RouteParameters<typeof searchQuery>


/** What a source is found by in discovery: its id; its name, keywords, synonyms and topic; its description. */
function named(source: CompiledSource): Named {
  const d = source.definition
  return { codes: [source.id], names: [d.name, ...d.keywords, ...(d.synonyms ?? []), d.topic], text: d.description }
}

/**
 * Cross-source search in `source_discovery` mode: matches source ids, names, keywords and
 * curated synonyms locally, without calling any upstream. `auto` routes here too, as no
 * entity search exists yet; `entities` and `all` answer a 400 that says so.
 *
 * @example
 * searchSources(catalog, links, { q: 'strøm', limit: 5, mode: 'auto' }).results[0].id // 'statnett'
 */
export function searchSources(catalog: Catalog, links: Links, params: SearchParameters, documentation: string) {
  if (params.mode === 'entities' || params.mode === 'all') {
    throw new GatewayError(400, 'mode_not_available', `Search mode "${params.mode}" is not available yet; use mode=source_discovery (or auto)`, {
      details: [{ parameter: 'mode', problem: 'must be auto or source_discovery; entity search is not available in this version', rule: 'enum' }],
    })
  }
  let candidates = catalog.sources
  if (params.sources !== undefined) {
    const ids = params.sources.split(',').map((id) => id.trim()).filter((id) => id !== '')
    const unknown = ids.filter((id) => !catalog.has(id))
    if (unknown.length > 0) {
      throw new GatewayError(400, 'invalid_parameter', `Unknown source in sources: ${unknown.join(', ')}`, {
        details: [{ parameter: 'sources', problem: `names unknown source ${unknown.join(', ')}; available: ${catalog.sources.map((s) => s.id).join(', ')}`, rule: 'enum' }],
      })
    }
    candidates = candidates.filter((s) => ids.includes(s.id))
  }
  const sorted = [...candidates].sort((a, b) => a.id.localeCompare(b.id))
  const matches = rankByName(params.q, sorted, named).map(({ item, tier }) => ({ source: item, score: (matchTierCount - tier!) * 10 }))
  const shown = matches.slice(0, params.limit)
  const self = links.api('/sok/alle', { ...params })
  return {
    query: params.q,
    outcome: shown.length > 0 ? 'results' : 'no_results',
    mode: 'source_discovery',
    results: shown.map(({ source, score }) => ({
      type: 'data_source',
      id: source.id,
      name: source.definition.name,
      description: source.definition.description,
      source: source.id,
      score,
      _links: { wiki: source.definition.documentation, api: links.source(source.id) },
    })),
    data_sources: shown.map(({ source }) => sourceDescriptor(catalog, source, links, 'full')),
    returned: shown.length,
    total_matched: matches.length,
    limit: { value: params.limit, scope: 'total results across all sources' },
    coverage: {},
    not_searched: {
      sources: candidates.map((s) => s.id),
      reason: 'source_discovery matches the source catalog only; no source was searched for entities',
    },
    suggestion:
      shown.length > 0
        ? `Open a source's descriptor (_links.api) to see its operations, then call ${links.operation('{source}', '{operation}')}.`
        : `No source matched "${params.q}". Try a broader word (for example a topic such as energy, flights, company or law) or list every source at ${links.sources()}.`,
    _meta: buildMeta(shown.map((m) => m.source.definition)),
    _links: { self, wiki: documentation, api_index: `${links.root}/` },
  }
}
