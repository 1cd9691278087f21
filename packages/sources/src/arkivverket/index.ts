import { deferEntitySearch, deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import type { RequestBudget } from '../shared/request-budget.js'
import { censusRequestBudget } from './census-budget.js'
import { digitalarkivetCensus } from './digitalarkivet-upstream.js'
import { censusPropertiesPlaceField } from './place-fields.js'

/** Options of {@link arkivverket}. */
export interface ArkivverketOptions {
  /**
   * The request budget calls to Digitalarkivet take their turn in. By default one budget of 2
   * requests in 10 s (Digitalarkivet's crawl delay of 5 s) is shared by every `arkivverket()`
   * source in the process; an upstream played on this machine (the offline demo) is called
   * without one, as it is not Digitalarkivet.
   */
  requestBudget?: RequestBudget
}

/**
 * The built-in `arkivverket` source: Norway's 1910 census from Arkivverket's Digitalarkivet, its
 * dwelling places (farms, holdings, town addresses) by name or around a point, with who lived
 * there. Calls keep to Digitalarkivet's crawl delay through a process-wide request budget, and
 * answers are kept for a week.
 *
 * @example
 * import { createGateway } from '@allmenning/core'
 * import { arkivverket } from '@allmenning/sources/arkivverket'
 * const gateway = createGateway({ sources: [arkivverket()] })
 * // GET /api/v1/kilder/arkivverket/search_census_properties?query=Kristiania&limit=50
 */
export function arkivverket(options: ArkivverketOptions = {}): SourceDefinition {
  // Left undefined, each call takes the process-wide budget (see budgetFor); the search's guard reads that one.
  const budget = options.requestBudget
  return defineSource({
    id: 'arkivverket',
    name: 'National Archives of Norway: the 1910 census (Digitalarkivet)',
    description:
      "The 1910 census of Norway from Arkivverket's Digitalarkivet: farms, holdings and town street addresses of 1910 by name " +
      'or around a point, with farm and holding numbers, where they lay, and the people counted there (name, occupation, ' +
      'birth date and place, position in the household).',
    documentation: 'https://api.digitalarkivet.no/',
    topic: 'culture',
    keywords: [
      'census',
      '1910',
      'folketelling',
      'folketellingen 1910',
      'digitalarkivet',
      'arkivverket',
      'genealogy',
      'slektsforskning',
    ],
    synonyms: [
      'national archives',
      'riksarkivet',
      'bosted',
      'gård',
      'gårdsnavn',
      'bruk',
      'gateadresse',
      'Kristiania',
      'ancestors',
      'slekt',
      'historie',
    ],
    contentLanguages: ['no'],
    // The census is closed; a week keeps the crawl delay far from any client.
    cacheTtlSeconds: 7 * 24 * 3600,
    limit: { default: 50, max: 100 },
    upstreams: [digitalarkivetCensus],
    entityTypes: { census_property: { operation: 'get_census_property', parameter: 'property_id' } },
    // Imported when a search first needs it, as the operations it calls are.
    entitySearch: deferEntitySearch(async () =>
      (await import('./census-entity-search.js')).createCensusEntitySearch(budget ?? censusRequestBudget),
    ),
    // The operations' code is imported when a request first reads it (see deferOperations).
    operations: deferOperations(
      {
        search_census_properties: { operation: 'searchCensusProperties', placeField: censusPropertiesPlaceField },
        get_census_property: 'getCensusProperty',
      },
      async () => (await import('./operations.js')).arkivverketOperations(budget),
    ),
  })
}
export { digitalarkivetCensus } from './digitalarkivet-upstream.js'
export { censusRequestBudget } from './census-budget.js'
