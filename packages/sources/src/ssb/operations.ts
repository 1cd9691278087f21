import { createGetTableData } from './get-table-data.js'
import { createGetTableMetadata } from './get-table-metadata.js'
import { searchTables } from './search-tables.js'
import { createMetadataMemo } from './table-metadata.js'

/**
 * The operations of one `ssb()` source, keyed as its outline reads them, sharing its memo of table
 * metadata (get_table_data counts cells from a table's metadata on every call): loaded when a
 * request first reads them.
 */
export function ssbOperations() {
  const metadata = createMetadataMemo()
  return {
    searchTables,
    getTableMetadata: createGetTableMetadata(metadata),
    getTableData: createGetTableData(metadata),
  }
}
