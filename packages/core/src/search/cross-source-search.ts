import type { Catalog } from '../compile/catalog.js'
import type { CompiledSource } from '../compile/compile-source.js'
import { sourceDescriptor } from '../describe/descriptors.js'
import { GatewayError } from '../http/gateway-error.js'
import type { Links } from '../http/links.js'
import { buildMeta } from '../pipeline/meta.js'
import { matchTierCount } from '../text/rank-by-name.js'
import { fanOutEntitySearch, type FanOutOptions, type RankedHit, type SourceCoverage } from './entity-fan-out.js'
import type { SearchParameters } from './search-query.js'
import { searchOutcome, unanswered } from './search-outcome.js'
import { discoverSources, namesSourceTier, type SourceMatch } from './source-discovery.js'

/** Limits of entity search, a gateway option. */
export interface SearchOptions {
  /** The whole search's time limit; 3000 ms by default. */
  deadlineMs?: number
  /** The longest one source may take; 2500 ms by default. */
  sourceTimeoutMs?: number
  /** How many sources one search may fan out to; 12 by default. The rest are left out as over budget. */
  maxSources?: number
}

export interface CrossSourceSearchParts {
  catalog: Catalog
  options: SearchOptions
  call: FanOutOptions['call']
  /** Hears failures of a source's search that are not the source's own answer (bugs). */
  onError(error: unknown): void
}

/** Why a source was not searched for entities. */
interface Skipped {
  source: string
  reason: 'filtered_by_sources' | 'cannot_search' | 'over_budget' | 'routed_elsewhere' | 'source_discovery_only'
}

const score = (tier: number) => (matchTierCount - tier) * 10

/** The sources named by `sources=`, or every source; unknown ids are a 400 naming them. */
function candidatesOf(catalog: Catalog, sources: string | undefined): CompiledSource[] {
  if (sources === undefined) return catalog.sources
  const ids = sources
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '')
  const unknown = ids.filter((id) => !catalog.has(id))
  if (unknown.length > 0) {
    throw new GatewayError(400, 'invalid_parameter', `Unknown source in sources: ${unknown.join(', ')}`, {
      details: [
        {
          parameter: 'sources',
          problem: `names unknown source ${unknown.join(', ')}; available: ${catalog.sources.map((s) => s.id).join(', ')}`,
          rule: 'enum',
        },
      ],
    })
  }
  return catalog.sources.filter((s) => ids.includes(s.id))
}

/** A text that is recognisably one source's (an organisation number, an airport code), and whose. */
async function recognise(
  query: string,
  searchable: readonly CompiledSource[],
): Promise<{ source: CompiledSource; kind: string } | undefined> {
  for (const source of searchable) {
    // In order, so the first source that recognizes the text owns it; a deferred search answers once loaded.
    const kind = await source.definition.entitySearch?.recognize?.(query)
    if (kind !== undefined) return { source, kind }
  }
  return undefined
}

/**
 * `/api/v1/sok/alle` (spec 4.1, 2.5): source discovery, entity search across every source
 * that declares one, or both, in one ranked list with honest coverage.
 *
 * - `source_discovery` matches the source catalog (ids, names, keywords, descriptions) locally; no upstream is called.
 * - `entities` searches entities only: concurrently, within one deadline and a budget per
 *   source; `coverage` says how each source did, `not_searched` which were left out and why.
 * - `all` does both; source matches and entity hits share one ranking.
 * - `auto` answers with source discovery when the text names a source (its id, name, keyword or
 *   synonym); a text that is recognisably one source's (nine digits passing the
 *   organisation-number check, an airport code) is searched in that source first; anything
 *   else searches entities, and falls back to source discovery when no entity matched.
 */
export async function crossSourceSearch(
  parts: CrossSourceSearchParts,
  params: SearchParameters,
  links: Links,
  documentation: string,
) {
  const { catalog } = parts
  const candidates = candidatesOf(catalog, params.sources)
  const filtered: Skipped[] = catalog.sources
    .filter((s) => !candidates.includes(s))
    .map((s) => ({ source: s.id, reason: 'filtered_by_sources' }))
  const discovered = params.mode === 'entities' ? [] : discoverSources(params.q, candidates)

  let mode: 'source_discovery' | 'entities' | 'all' = params.mode === 'auto' ? 'entities' : params.mode
  let routing: Record<string, string> | undefined
  if (params.mode === 'auto' && discovered.some((m) => m.tier <= namesSourceTier)) {
    mode = 'source_discovery'
    routing = { reason: 'the text names a source' }
  }

  const searchable = candidates.filter((s) => s.definition.entitySearch)
  const skipped: Skipped[] = [
    ...filtered,
    ...candidates
      .filter((s) => !s.definition.entitySearch)
      .map((s) => ({ source: s.id, reason: 'cannot_search' as const })),
  ]
  let hits: RankedHit[] = []
  let coverage: Record<string, SourceCoverage> = {}
  if (mode === 'source_discovery') {
    skipped.push(...searchable.map((s) => ({ source: s.id, reason: 'source_discovery_only' as const })))
  } else {
    const maxSources = parts.options.maxSources ?? 12
    let targets = searchable
    const owner = params.mode === 'auto' ? await recognise(params.q, searchable) : undefined
    if (owner) targets = [owner.source, ...searchable.filter((s) => s !== owner.source)]
    skipped.push(...targets.slice(maxSources).map((s) => ({ source: s.id, reason: 'over_budget' as const })))
    targets = targets.slice(0, maxSources)
    const fanOut = (sources: CompiledSource[]) =>
      fanOutEntitySearch(params.q, sources, {
        limit: params.limit,
        deadline: Date.now() + (parts.options.deadlineMs ?? 3000),
        sourceTimeoutMs: parts.options.sourceTimeoutMs ?? 2500,
        call: parts.call,
      })
    let found = owner ? await fanOut([owner.source]) : undefined
    if (owner)
      routing = {
        reason: `the text is recognisably ${owner.kind.replace(/_/g, ' ')}`,
        recognized_as: owner.kind,
        source: owner.source.id,
      }
    if (found && found.hits.length > 0) {
      skipped.push(...targets.slice(1).map((s) => ({ source: s.id, reason: 'routed_elsewhere' as const })))
    } else {
      found = await fanOut(targets)
      if (owner)
        routing = {
          ...routing!,
          reason: `${routing!.reason}, but ${owner.source.id} found nothing; every source was searched`,
        }
    }
    for (const failure of found.failures) if (!(failure instanceof GatewayError)) parts.onError(failure)
    hits = found.hits
    coverage = found.coverage
    if (params.mode === 'auto' && hits.length === 0 && discovered.length > 0) {
      mode = 'all'
      routing = {
        ...routing,
        reason: `${routing?.reason ?? 'no source is named'}; no entity matched, so sources that match are shown`,
      }
    }
  }

  const sourceResults = mode === 'entities' ? [] : discovered
  const results = rank(sourceResults, hits)
  const shown = results.slice(0, params.limit)
  const totalMatched = sourceResults.length + Object.values(coverage).reduce((sum, c) => sum + c.matched, 0)
  const described = unique(shown.map((r) => r.source))
  const notSearched = skipped
  return {
    query: params.q,
    outcome: searchOutcome(shown.length, coverage),
    mode,
    ...(routing ? { routing } : {}),
    results: shown.map((r) => (r.kind === 'source' ? sourceItem(r.match, links) : entityItem(r.hit, links))),
    data_sources: shown
      .filter((r) => r.kind === 'source')
      .map((r) => sourceDescriptor(catalog, r.source, links, 'full')),
    returned: shown.length,
    total_matched: totalMatched,
    limit: { value: params.limit, scope: 'total results across all sources' },
    coverage,
    not_searched: {
      sources: notSearched.map((s) => s.source),
      reason: notSearched.length === 0 ? 'every source that can search was searched' : describeSkipped(notSearched),
      details: notSearched,
    },
    suggestion: suggestion(shown, params.q, coverage, links),
    _meta: buildMeta(described.map((s) => s.definition)),
    _links: { self: links.to('search', {}, { ...params }), wiki: documentation, api_index: links.index() },
  }
}

type Result =
  | { kind: 'source'; match: SourceMatch; source: CompiledSource; tier: number }
  | { kind: 'entity'; hit: RankedHit; source: CompiledSource; tier: number }

/** Source matches and entity hits in one ranking: by tier, a named source before an entity of the same tier. */
function rank(sources: SourceMatch[], hits: RankedHit[]): Result[] {
  const all: Result[] = [
    ...sources.map((match) => ({ kind: 'source' as const, match, source: match.source, tier: match.tier })),
    ...hits.map((hit) => ({ kind: 'entity' as const, hit, source: hit.source, tier: hit.tier })),
  ]
  // sort() is stable, so within a tier sources keep their order, then hits theirs.
  return all.sort((a, b) => a.tier - b.tier)
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)]
}

function sourceItem({ source, tier }: SourceMatch, links: Links) {
  return {
    type: 'data_source',
    id: source.id,
    name: source.definition.name,
    description: source.definition.description,
    source: source.id,
    score: score(tier),
    _links: { wiki: source.definition.documentation, api: links.source(source.id) },
  }
}

function entityItem({ source, hit, tier }: RankedHit, links: Links) {
  const type = source.definition.entityTypes?.[hit.type]
  if (!type)
    throw new TypeError(`${source.id} found an entity of type ${hit.type}, which it does not declare in entityTypes`)
  return {
    type: hit.type,
    id: hit.id,
    name: hit.name,
    description: hit.description ?? '',
    source: source.id,
    score: score(tier),
    _links: {
      api: links.operation(source.id, type.operation, hit.linkParameters ?? { [type.parameter]: hit.id }),
      wiki: source.definition.documentation,
    },
  }
}

function describeSkipped(skipped: Skipped[]): string {
  const reasons: Record<Skipped['reason'], string> = {
    filtered_by_sources: 'not among sources=',
    cannot_search: 'has no entity search',
    over_budget: 'over the fan-out budget',
    routed_elsewhere: 'the text belongs to another source, which answered',
    source_discovery_only: 'the search matched the catalogue only',
  }
  const byReason = new Map<string, string[]>()
  for (const s of skipped) byReason.set(reasons[s.reason], [...(byReason.get(reasons[s.reason]) ?? []), s.source])
  return [...byReason].map(([reason, ids]) => `${ids.join(', ')}: ${reason}`).join('; ')
}

function suggestion(shown: Result[], query: string, coverage: Record<string, SourceCoverage>, links: Links): string {
  const first = shown[0]
  const failed = unanswered(coverage)
  if (!first && failed.length > 0) {
    return `Nothing was found for "${query}", but not every source could answer: ${failed.join('; ')}. Try again shortly, or search the others with sources=.`
  }
  if (!first) {
    return `Nothing matched "${query}". Try a broader word (a topic such as energy, flights, company or law), mode=entities for names and numbers, or list every source at ${links.sources()}.`
  }
  if (first.kind === 'source') {
    return `Open a source's descriptor (_links.api) to see its operations, then call ${links.operation('{source}', '{operation}')}.`
  }
  return `Call the first result's _links.api for its details; each source's descriptor (${links.source('{source}')}) lists what else it can tell.`
}

/** How long a search answer stays fresh: briefly, and shorter when a source failed or was too slow. */
export function searchTtlSeconds(answer: { coverage: Record<string, SourceCoverage> }): number {
  return Object.values(answer.coverage).every((c) => c.status === 'ok') ? 60 : 5
}
