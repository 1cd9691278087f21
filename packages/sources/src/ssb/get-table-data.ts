import * as v from 'valibot'
import { checkUpstreamShape, defineOperation, UpstreamError, type TimedMemo } from '@allmenning/core/source'
import { jsonStatRows, tableRowSchema } from './json-stat-rows.js'
import { ssbApi } from './ssb-upstream.js'
import { jsonStatSchema } from './ssb-payloads.js'
import { loadTableMetadata, type TableMetadata } from './table-metadata.js'
import { langSchema, tableIdSchema } from './table-parameters.js'
import { checkSelection, MAX_CELLS, type VariableSelection } from './table-selection.js'

/** `data` of `get_table_data`. */
export const getTableDataOutput = v.object({
  table_id: v.string(),
  label: v.string(),
  source: v.nullable(v.string()),
  updated: v.nullable(v.string()),
  cells: v.pipe(v.number(), v.description('Cells the selection selects: the rows before paging')),
  rows: v.array(tableRowSchema),
})

/** GET URLs past about 2 000 characters fail at SSB (often as a 404): longer selections are POSTed. */
const MAX_GET_URL = 1_800

function valueCodes(variables: VariableSelection[]): Record<string, string> {
  return Object.fromEntries(
    variables.map((variable) => [`valueCodes[${variable.code}]`, variable.expressions.join(',')]),
  )
}

/**
 * `get_table_data`: figures from one table for the values a client chooses per variable
 * (`selection=Region:0301,4601;ContentsCode:Folkemengde;Tid:top(3)`), as rows. The selection is
 * checked against the table's metadata before SSB is called: unknown variables or values, a
 * variable that must be selected and is not, and more than {@link MAX_CELLS} cells are 400s
 * naming `selection`.
 *
 * @example
 * const getTableData = createGetTableData(createMetadataMemo())
 * const { data } = await getTableData.run({ table_id: '07459', selection: 'Region:0301;Tid:top(1)', lang: 'no', limit: 100, offset: 0 }, ctx)
 * data.rows[0] // { Region: '0301', Region_label: 'Oslo', …, Tid: '2025', value: 717710, status: null, unit: 'personer' }
 */
export function createGetTableData(memo: TimedMemo<TableMetadata>) {
  return defineOperation({
    description:
      'Figures from a Statistics Norway table as rows, one per cell: each variable’s code and label, value, status ' +
      '(why a value is missing) and unit. selection names the values per variable: Region:0301,4601;ContentsCode:*;Tid:top(3) ' +
      '(codes from get_table_metadata; * and ? wildcards, top(n), bottom(n), from(x), to(x), range(a,b)). Variables that ' +
      `cannot be eliminated must be selected; at most ${MAX_CELLS} cells a call.`,
    parameters: {
      table_id: tableIdSchema,
      selection: v.pipe(
        v.string(),
        v.trim(),
        v.minLength(3, 'must select at least one variable, e.g. Tid:top(1)'),
        v.maxLength(4000, 'must be at most 4000 characters'),
        v.description(
          'variable:values pairs separated by ";", values by ",": Region:0301,4601;ContentsCode:*;Tid:top(3)',
        ),
      ),
      lang: langSchema,
    },
    limit: { default: 1000, max: MAX_CELLS },
    output: getTableDataOutput,
    list: 'rows',
    shapeNote:
      'Rows in the table’s order, the last variable changing fastest; keys are the variable codes of get_table_metadata.',
    // SSB publishes once a day, at 08:00.
    cacheTtlSeconds: 3 * 3600,
    async run(params, ctx) {
      const client = ctx.upstream(ssbApi)
      const table = await loadTableMetadata(memo, client, params.table_id, params.lang)
      const selection = checkSelection(params.selection, table)
      const path = `/tables/${params.table_id}/data`
      const base = { lang: params.lang, outputFormat: 'json-stat2' }
      const asGet = { ...base, ...valueCodes(selection.variables) }
      const res =
        client.url(path, asGet).length <= MAX_GET_URL
          ? await client.getJson(path, { query: asGet })
          : await client.postJson(
              path,
              {
                selection: selection.variables.map((variable) => ({
                  variableCode: variable.code,
                  valueCodes: variable.expressions,
                })),
              },
              { query: base },
            )
      const dataset = checkUpstreamShape(client, jsonStatSchema, res.body, 'the table data')
      const answered = dataset.size.reduce((product, size) => product * size, 1)
      // What SSB answers is turned into rows cell by cell: a body claiming far more cells than
      // were asked for must not keep the event loop busy.
      if (answered > selection.cells) {
        throw new UpstreamError(
          client,
          'invalid_response',
          `answered ${answered} cells where ${selection.cells} were asked for`,
        )
      }
      return {
        data: {
          table_id: table.table_id,
          label: dataset.label ?? table.label,
          source: dataset.source ?? table.source,
          updated: dataset.updated ?? table.updated,
          cells: answered,
          rows: jsonStatRows(dataset),
        },
        sourceApi: res.url,
      }
    },
    entities: (data) => [{ type: 'statistics_table', id: data.table_id, name: data.label }],
  })
}
