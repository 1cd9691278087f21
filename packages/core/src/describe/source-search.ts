import type { Catalog } from '../compile/catalog.js'
import type { CompiledSource } from '../compile/compile-source.js'
import { sourceDescriptor } from './descriptors.js'
import { GatewayError } from '../http/gateway-error.js'
import type { Links } from '../http/links.js'
import { foldNorwegian } from '../text/fold-norwegian.js'
import { buildMeta } from '../pipeline/meta.js'

/** Parameters of `/api/v1/sok/alle`, validated. */
export interface SearchParameters {
  q: string
  limit: number
  sources?: string
  mode: 'auto' | 'source_discovery' | 'entities' | 'all'
}


function tokens(text: string): string[] {
  return foldNorwegian(text).split(/[^\p{L}\p{N}]+/u).filter((t) => t.length > 0)
}

/** How well a query matches a source: 0 for no match, higher is better. */
function score(source: CompiledSource, query: string): number {
  const d = source.definition
  const q = foldNorwegian(query).trim()
  if (q === '') return 0
  const terms = [...d.keywords, ...(d.synonyms ?? [])].map(foldNorwegian)
  if (q === source.id) return 100
  if (q === foldNorwegian(d.name)) return 90
  if (terms.includes(q)) return 80
  if (foldNorwegian(d.name).includes(q) || q.includes(source.id)) return 60
  const queryTokens = tokens(query)
  const termTokens = new Set(terms.flatMap((t) => tokens(t)).concat(tokens(d.name), [source.id, foldNorwegian(d.topic)]))
  if (queryTokens.some((t) => termTokens.has(t))) return 50
  if (queryTokens.some((t) => t.length >= 4 && [...termTokens].some((term) => term.startsWith(t) || (term.length >= 4 && t.startsWith(term))))) return 30
  if (q.length >= 4 && foldNorwegian(d.description).includes(q)) return 20
  return 0
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
  const matches = candidates
    .map((source) => ({ source, score: score(source, params.q) }))
    .filter((m) => m.score > 0)
    .sort((a, b) => b.score - a.score || a.source.id.localeCompare(b.source.id))
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
      _links: { wiki: source.definition.documentation, api: links.api(`/kilder/${source.id}`) },
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
        ? `Open a source's descriptor (_links.api) to see its operations, then call ${links.root}/kilder/{source}/{operation}.`
        : `No source matched "${params.q}". Try a broader word (for example a topic such as energy, flights, company or law) or list every source at ${links.api('/kilder')}.`,
    _meta: buildMeta(shown.map((m) => m.source.definition)),
    _links: { self, wiki: documentation, api_index: `${links.root}/` },
  }
}
