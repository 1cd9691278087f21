import { defineOperation, type TimedMemo } from '@allmenning/core/source'
import { ssbApi } from './ssb-upstream.js'
import { loadTableMetadata, metadataRequest, tableMetadataSchema, type TableMetadata } from './table-metadata.js'
import { langSchema, tableIdSchema } from './table-parameters.js'

/**
 * `get_table_metadata`: a table's variables, with every value's code and label, which
 * variables a data query must select, the measures' units and the code lists SSB offers.
 * Shares the source's metadata memo with `get_table_data`.
 *
 * @example
 * const getTableMetadata = createGetTableMetadata(createMetadataMemo())
 * const { data } = await getTableMetadata.run({ table_id: '07459', lang: 'no', limit: 25, offset: 0 }, ctx)
 */
export function createGetTableMetadata(memo: TimedMemo<TableMetadata>) {
  return defineOperation({
    description:
      "A Statistics Norway table's variables (e.g. Region, ContentsCode for the measures, Tid for time) with every " +
      'value’s code and label, the unit of each measure, and whether a variable may be left out of a get_table_data ' +
      'selection (elimination) or must be selected.',
    parameters: { table_id: tableIdSchema, lang: langSchema },
    output: tableMetadataSchema,
    shapeNote: 'Variables in the order of the JSON-stat2 dataset; values in SSB’s order (time ascending).',
    // A table's variables change when SSB adds a period, at most once a day.
    cacheTtlSeconds: 6 * 3600,
    async run(params, ctx) {
      const client = ctx.upstream(ssbApi)
      const table = await loadTableMetadata(memo, client, params.table_id, params.lang)
      const { path, query } = metadataRequest(params.table_id, params.lang)
      return { data: table, sourceApi: client.url(path, query) }
    },
    entities: (data) => [{ type: 'statistics_table', id: data.table_id, name: data.label }],
  })
}
