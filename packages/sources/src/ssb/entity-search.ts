import type { EntitySearch } from '@allmenning/core/source'
import type { TableSummary } from './search-tables.js'
import type { TableMetadata } from './table-metadata.js'

const TABLE_NUMBER = /^\d{5}$/

/**
 * Statistikkbanken's tables by number or by words, through the source's own operations (so a
 * search reuses what `search_tables` and `get_table_metadata` already cached). Only words are
 * sent: SSB reads the query as Lucene, where a stray `:` or `(` is a syntax error.
 */
export const ssbEntitySearch: EntitySearch = {
  recognize: (text) => (TABLE_NUMBER.test(text.trim()) ? 'statistics_table' : undefined),
  async search(text, ctx) {
    const trimmed = text.trim()
    if (TABLE_NUMBER.test(trimmed)) {
      const table = (await ctx.call('get_table_metadata', { table_id: trimmed })) as TableMetadata
      return {
        hits: [
          {
            type: 'statistics_table',
            id: table.table_id,
            name: table.label,
            description: `Statistics Norway table, ${table.variables.map((v) => v.label).join(', ')}`,
          },
        ],
      }
    }
    const words = trimmed
      .replace(/[^\p{L}\p{N}\s-]+/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 200)
    if (words.length < 2) return { hits: [] }
    const { tables } = (await ctx.call('search_tables', { query: words, limit: ctx.limit })) as {
      tables: TableSummary[]
    }
    return {
      hits: tables.map((table) => ({
        type: 'statistics_table',
        id: table.table_id,
        name: table.label,
        description: `Statistics Norway table${table.first_period ? `, ${table.first_period}–${table.last_period ?? ''}` : ''}`,
      })),
    }
  },
}
