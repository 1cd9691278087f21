import { UpstreamError, type EntitySearch } from '@allmenning/core/source'
import type { RequestBudget } from '../shared/request-budget.js'
import { digitalarkivetCensus } from './digitalarkivet-upstream.js'

interface FoundPlace {
  property_id: string
  gaardsnavn_gateadr: string | null
  bruksnavn: string | null
  kommune_sokn: string | null
  fylke: string | null
  coordinates: { lat: number; lon: number } | null
}

/**
 * Finds dwelling places of the 1910 census by name for `/api/v1/sok/alle`, through the source's
 * own `search_census_properties` (so a search answered before costs no call). Digitalarkivet's
 * crawl delay leaves room for a call every 5 s, and those turns belong to the operation's callers:
 * a search asks the upstream only when no census call was made in the budget's last window, and
 * otherwise reports the source busy (in the search's coverage) instead of taking a turn.
 *
 * @example
 * entitySearch: createCensusEntitySearch(censusRequestBudget)
 */
export function createCensusEntitySearch(budget: RequestBudget): EntitySearch {
  return {
    async search(text, ctx) {
      const query = text.trim()
      // Numbers and single letters name no 1910 farm or street.
      if (query.length < 2 || /^[\d\s.-]+$/.test(query)) return { hits: [] }
      if (budget.inWindow > 0) {
        throw new UpstreamError(
          digitalarkivetCensus,
          'busy',
          'was not asked: its turns are kept for the operation’s callers (5 s between requests)',
          undefined,
          {
            retryAfterSeconds: 10,
          },
        )
      }
      const data = (await ctx.call('search_census_properties', {
        query,
        limit: Math.min(ctx.limit, 100),
        include_residents: false,
      })) as {
        properties: FoundPlace[]
        count: number
      }
      const hits = data.properties.slice(0, ctx.limit).map((p) => ({
        type: 'census_property',
        id: p.property_id,
        name: p.gaardsnavn_gateadr ?? p.bruksnavn ?? p.property_id,
        description: `1910 census: ${[p.kommune_sokn, p.fylke].filter(Boolean).join(', ') || 'dwelling place'}`,
        ...(p.coordinates ? { lat: p.coordinates.lat, lon: p.coordinates.lon } : {}),
      }))
      return { hits, matched: data.count }
    },
  }
}
