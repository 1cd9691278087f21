import { defineSource, type SourceDefinition } from '@allmenning/core/source'
import { ssbEntitySearch } from './entity-search.js'
import { createGetTableData } from './get-table-data.js'
import { createGetTableMetadata } from './get-table-metadata.js'
import { searchTables } from './search-tables.js'
import { ssbApi } from './ssb-upstream.js'
import { createMetadataMemo } from './table-metadata.js'

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
  // One memo per gateway: get_table_data counts cells from a table's metadata on every call.
  const metadata = createMetadataMemo()
  return defineSource({
    id: 'ssb',
    name: 'SSB Statistikkbanken (Statistics Norway)',
    description:
      "Statistics Norway's official statistics: search its tables, read a table's variables and values, and fetch " +
      'figures (population, prices, employment, business, …) by region and period as rows.',
    documentation: 'https://www.ssb.no/en/api/pxwebapi',
    topic: 'statistics',
    keywords: ['statistikk', 'statistics', 'ssb', 'statistikkbanken', 'tabell', 'table', 'befolkning', 'population', 'kommune', 'region'],
    synonyms: ['statistisk sentralbyrå', 'statistics norway', 'pxweb', 'pxwebapi', 'json-stat', 'folketall', 'folkemengde', 'kpi', 'konsumprisindeks', 'arbeidsledighet', 'tall', 'figures'],
    contentLanguages: ['no', 'en'],
    // SSB publishes new figures once a day, at 08:00.
    cacheTtlSeconds: 3 * 3600,
    upstreams: [ssbApi],
    entityTypes: { statistics_table: { operation: 'get_table_metadata', parameter: 'table_id' } },
    entitySearch: ssbEntitySearch,
    operations: [searchTables, createGetTableMetadata(metadata), createGetTableData(metadata)],
  })
}

export { ssbApi } from './ssb-upstream.js'
export { searchTables } from './search-tables.js'
export { createGetTableMetadata } from './get-table-metadata.js'
export { createGetTableData } from './get-table-data.js'
export { createMetadataMemo } from './table-metadata.js'
export { checkSelection, MAX_CELLS } from './table-selection.js'
export { jsonStatRows } from './json-stat-rows.js'
