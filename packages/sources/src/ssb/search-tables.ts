import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import { checkUpstreamShape, defineOperation } from '@allmenning/core/source'
import { fetchWindow } from '../shared/upstream-pages.js'
import { ssbApi } from './ssb-upstream.js'
import { tableSearchSchema, type TableHit } from './ssb-payloads.js'
import { langSchema } from './table-parameters.js'

const tableSchema = v.object({
  table_id: v.string(),
  label: v.string(),
  description: v.nullable(v.string()),
  updated: v.pipe(v.nullable(v.string()), v.description('When SSB last published new figures in the table')),
  first_period: v.nullable(v.string()),
  last_period: v.nullable(v.string()),
  time_unit: v.pipe(v.nullable(v.string()), v.description('Annual, Quarterly, Monthly, Weekly, Other')),
  variables: v.array(v.string()),
  discontinued: v.nullable(v.boolean()),
})

/** `data` of `search_tables`. */
export const searchTablesOutput = v.object({ query: v.string(), tables: v.array(tableSchema) })

/** One table hit as `search_tables` answers it. */
export type TableSummary = v.InferOutput<typeof tableSchema>

function toSummary(hit: TableHit): TableSummary {
  return {
    table_id: hit.id,
    label: hit.label,
    description: hit.description || null,
    updated: hit.updated ?? null,
    first_period: hit.firstPeriod ?? null,
    last_period: hit.lastPeriod ?? null,
    time_unit: hit.timeUnit ?? null,
    variables: hit.variableNames ?? [],
    discontinued: hit.discontinued ?? null,
  }
}

/**
 * `search_tables`: Statistikkbanken's tables matching a query (words, or PxWebApi's Lucene
 * syntax: `title:befolkning`, `trend AND anlegg*`), best first, paged onto SSB's
 * `pageNumber`/`pageSize`. A query SSB cannot parse is a 400 naming `query`.
 *
 * @example
 * const { data } = await searchTables.run({ query: 'folkemengde', lang: 'no', limit: 10, offset: 0 }, ctx)
 * data.tables[0]?.table_id // '07459'
 */
export const searchTables = defineOperation({
  description:
    "Search Statistics Norway's tables (Statistikkbanken) by words in their titles and variables, or with PxWebApi's " +
    'query syntax (title:befolkning, trend AND anlegg*). Each hit has the table number to use in get_table_metadata ' +
    'and get_table_data, its period range and variables. Discontinued tables are left out.',
  parameters: {
    query: v.pipe(
      v.string(),
      v.trim(),
      v.minLength(2, 'must be at least 2 characters'),
      v.maxLength(200, 'must be at most 200 characters'),
      v.description('Words, or a PxWebApi (Lucene) query'),
    ),
    lang: langSchema,
  },
  limit: { default: 20, max: 100 },
  output: searchTablesOutput,
  list: 'tables',
  canonicalFieldAliases: { name: ['tables[].label'] },
  // SSB publishes new tables and figures once a day, at 08:00.
  cacheTtlSeconds: 3 * 3600,
  async run(params, ctx) {
    const client = ctx.upstream(ssbApi)
    const query = { query: params.query, lang: params.lang, includeDiscontinued: false }
    let url = ''
    const window = await fetchWindow(params, { first: 1 }, async (pageNumber, pageSize) => {
      const res = await client.getJson('/tables', { query: { ...query, pageNumber, pageSize }, acceptStatus: [400] })
      if (res.status === 400) {
        const problem =
          'is not a query SSB can read: use words, or its syntax such as title:befolkning or trend AND anlegg*'
        throw new GatewayError(400, 'invalid_parameter', `Invalid parameter: query ${problem}`, {
          details: [{ parameter: 'query', problem, rule: 'format' }],
        })
      }
      url ||= res.url
      const body = checkUpstreamShape(client, tableSearchSchema, res.body, 'the table search')
      return { items: body.tables, total: body.page.totalElements }
    })
    return { data: { query: params.query, tables: window.items.map(toSummary) }, page: window.page, sourceApi: url }
  },
  entities: (data) => data.tables.map((table) => ({ type: 'statistics_table', id: table.table_id, name: table.label })),
})
