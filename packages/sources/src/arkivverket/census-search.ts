import { GatewayError } from '@allmenning/core'
import { checkUpstreamShape, type UpstreamClient } from '@allmenning/core/source'
import type { RequestBudget } from '../shared/request-budget.js'
import { budgetFor, takeCensusTurn } from './census-budget.js'
import { upstreamPageFor } from './census-page-window.js'
import { censusSearchPayload } from './census-payload.js'
import { numberOf, toCensusProperty, type CensusProperty } from './census-rows.js'

/** The API's search path, below the 1910 census. */
export const SEARCH_PATH = '/search_property_geo'

/** What one census search asks: a name, a point with a radius, or both. */
export interface CensusQuery {
  query?: string | undefined
  lat?: number | undefined
  lon?: number | undefined
  radiusM: number
  includeResidents: boolean
  limit: number
  offset: number
}

/** One window of a census search, and what the API said about the whole. */
export interface CensusSearchResult {
  properties: CensusProperty[]
  /** Hits in all, as the API counts them; undefined when it gave no count. */
  total: number | undefined
  hasMore: boolean
  /** Records the API sent that had no id to link them by (left out). */
  withoutId: number
  url: string
}

const refuse = (parameter: string, problem: string, rule: string) =>
  new GatewayError(400, 'invalid_parameter', `Invalid parameter: ${parameter} ${problem}`, {
    details: [{ parameter, problem, rule }],
  })

/**
 * Refuses a search that names neither a text nor a whole point, before any upstream call.
 *
 * @example
 * checkCensusQuery({ lat: 59.91, radiusM: 500, includeResidents: true, limit: 50, offset: 0 }) // throws: lon is missing
 */
export function checkCensusQuery(q: CensusQuery): void {
  if ((q.lat === undefined) !== (q.lon === undefined)) {
    const missing = q.lat === undefined ? 'lat' : 'lon'
    throw refuse(missing, 'is required when lat or lon is given: a point needs both', 'required')
  }
  if (q.query === undefined && q.lat === undefined) {
    throw refuse('query', 'is required unless lat and lon are given: search by a name, a point, or both', 'required')
  }
}

/**
 * Reads one window of a census search in one call of Digitalarkivet's `search_property_geo`,
 * after taking a turn in the budget (the given one, else the process's; see budgetFor). The point's radius is always sent as the API's `precision`
 * (metres): left out, the API finds nothing around a point.
 *
 * @example
 * // undefined: the process-wide budget (none for a stand-in on this machine)
 * await searchCensus(client, undefined, { query: 'Kristiania', radiusM: 500, includeResidents: false, limit: 50, offset: 0 })
 */
export async function searchCensus(
  client: UpstreamClient,
  budget: RequestBudget | undefined,
  q: CensusQuery,
): Promise<CensusSearchResult> {
  checkCensusQuery(q)
  const window = upstreamPageFor(q.offset, q.limit)
  const query = {
    s: q.query,
    latitude: q.lat,
    longitude: q.lon,
    precision: q.lat === undefined ? undefined : q.radiusM,
    limit: window.size,
    page: window.page,
    include_persons: q.includeResidents ? 1 : undefined,
  }
  await takeCensusTurn(budgetFor(client, budget), client)
  const response = await client.getJson(SEARCH_PATH, { query })
  const payload = checkUpstreamShape(client, censusSearchPayload, response.body, 'the census search')
  const hits = payload.results.slice(window.skip, window.skip + q.limit)
  const properties = hits
    .map((hit) => toCensusProperty(hit, q.includeResidents))
    .filter((p): p is CensusProperty => p !== null)
  const total = numberOf(payload.count) ?? numberOf(payload.total_found) ?? undefined
  // Without a count, a full page is the only sign of more.
  const hasMore = total !== undefined ? q.offset + hits.length < total : payload.results.length >= window.size
  return { properties, total, hasMore, withoutId: hits.length - properties.length, url: response.url }
}
