import { deferEntitySearch, deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import { ssbApi } from './ssb-upstream.js'
import { hasDigit } from '../shared/has-digit.js'

/**
 * The built-in statistics source: Statistics Norway's tables (Statistikkbanken) through
 * PxWebApi v2: search them, read a table's variables, and fetch figures as rows. Open data, no
 * key.
 *
 * @example
 * const gateway = createGateway({ sources: [ssb()] })
 * // tests and mirrors point its upstream elsewhere:
 * createGateway({ sources: [ssb()], upstreams: { ssb: { baseUrl: 'http://127.0.0.1:8080/api/pxwebapi/v2' } } })
 */
export function ssb(): SourceDefinition {
  return defineSource({
    id: 'ssb',
    name: 'SSB Statistikkbanken (Statistics Norway)',
    description:
      "Statistics Norway's official statistics: search its tables, read a table's variables and values, and fetch " +
      'figures (population, prices, employment, business, …) by region and period as rows.',
    documentation: 'https://www.ssb.no/en/api/pxwebapi',
    topic: 'statistics',
    keywords: [
      'statistikk',
      'statistics',
      'ssb',
      'statistikkbanken',
      'tabell',
      'table',
      'befolkning',
      'population',
      'kommune',
      'region',
    ],
    synonyms: [
      'statistisk sentralbyrå',
      'statistics norway',
      'pxweb',
      'pxwebapi',
      'json-stat',
      'folketall',
      'folkemengde',
      'kpi',
      'konsumprisindeks',
      'arbeidsledighet',
      'tall',
      'figures',
    ],
    contentLanguages: ['no', 'en'],
    // SSB publishes new figures once a day, at 08:00.
    cacheTtlSeconds: 3 * 3600,
    upstreams: [ssbApi],
    entityTypes: { statistics_table: { operation: 'get_table_metadata', parameter: 'table_id' } },
    // Imported when a search first needs it; only a text with a digit (a table number) loads it to
    // be recognized.
    entitySearch: deferEntitySearch(async () => (await import('./entity-search.js')).ssbEntitySearch, {
      mayRecognize: hasDigit,
    }),
    // The operations' code is imported when a request first reads it (see deferOperations).
    operations: deferOperations(
      { search_tables: 'searchTables', get_table_metadata: 'getTableMetadata', get_table_data: 'getTableData' },
      async () => (await import('./operations.js')).ssbOperations(),
    ),
  })
}

export { ssbApi } from './ssb-upstream.js'
