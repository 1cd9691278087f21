import type { Catalog } from '../compile/catalog.js'
import type { Links } from '../http/links.js'
import { buildMeta } from '../pipeline/meta.js'
import { fanOutEntitySearch, type FanOutOptions } from '../search/entity-fan-out.js'
import { searchOutcome } from '../search/search-outcome.js'
import { matchTierCount } from '../text/rank-by-name.js'

/**
 * `/api/v1/steder/sok`: addresses and place names (and anything else with a place) for a
 * text, from every source whose entity search gives coordinates, in one ranking; each with a
 * link to its `/steder/{lat}/{lon}` bundle.
 */
export async function placeSearch(
  catalog: Catalog,
  params: { q: string; limit: number },
  options: { deadlineMs?: number; sourceTimeoutMs?: number },
  call: FanOutOptions['call'],
  links: Links,
) {
  const searchable = catalog.sources.filter((s) => s.definition.entitySearch)
  const found = await fanOutEntitySearch(params.q, searchable, {
    limit: params.limit,
    deadline: Date.now() + (options.deadlineMs ?? 3000),
    sourceTimeoutMs: options.sourceTimeoutMs ?? 2500,
    call,
  })
  const placed = found.hits.filter(({ hit }) => Number.isFinite(hit.lat) && Number.isFinite(hit.lon))
  const shown = placed.slice(0, params.limit)
  // Sources whose search has nothing with a place are left out of coverage: they were not asked for places.
  const placing = new Set(placed.map((p) => p.source.id))
  const coverage = Object.fromEntries(
    Object.entries(found.coverage).filter(([id, c]) => placing.has(id) || c.status !== 'ok'),
  )
  return {
    query: params.q,
    outcome: searchOutcome(shown.length, coverage),
    results: shown.map(({ source, hit, tier }) => {
      const type = source.definition.entityTypes?.[hit.type]
      return {
        type: hit.type,
        id: hit.id,
        name: hit.name,
        description: hit.description ?? '',
        lat: hit.lat!,
        lon: hit.lon!,
        source: source.id,
        score: (matchTierCount - tier) * 10,
        _links: {
          place: links.to('place', { lat: hit.lat!, lon: hit.lon! }),
          ...(type
            ? { api: links.operation(source.id, type.operation, hit.linkParameters ?? { [type.parameter]: hit.id }) }
            : {}),
        },
      }
    }),
    returned: shown.length,
    total_matched: placed.length,
    coverage,
    _meta: buildMeta([...new Set(shown.map((s) => s.source.definition))]),
    _links: { self: links.to('place_search', {}, params), api_index: links.index() },
  }
}
