import type { DatasetCondition, DatasetQuery, DatasetSearch, DatasetTable, DatasetValue } from '@allmenning/core/source'
import { quote } from './table-names.js'

/** A query turned into SQL: the text depends only on the query's shape, so its statement is prepared once. */
export interface QuerySql {
  /** Identifies the shape (table, columns, operators, list lengths, order, window): the statement cache's key. */
  shape: string
  sql: string
  values: DatasetValue[]
}

// Above every code point, so `prefix <= x < prefix + top` holds exactly the strings that start with prefix.
const top = '\u{10FFFF}'

function isPrefix(condition: DatasetCondition): condition is { prefix: string } {
  return typeof condition === 'object' && condition !== null && 'prefix' in condition
}
function isIn(condition: DatasetCondition): condition is { in: DatasetValue[] } {
  return typeof condition === 'object' && condition !== null && 'in' in condition
}

function checkColumn(table: DatasetTable, column: string): string {
  if (!Object.hasOwn(table.columns, column)) throw new TypeError(`Table ${table.name} has no column "${column}"`)
  return quote(column)
}

/** The columns a lookup reads: those asked for, checked, or every declared one. */
function columnList(
  table: DatasetTable,
  columns: readonly string[] | undefined,
  alias = '',
): { shape: string; sql: string } {
  const names = columns ?? Object.keys(table.columns)
  return {
    shape: columns ? names.join(',') : '*',
    sql: names.map((column) => alias + checkColumn(table, column)).join(', '),
  }
}

/**
 * The WHERE clause of a query: equality (`IS`, so `null` finds nulls), `IN`, and prefix as a
 * range so an index on the column serves it.
 */
function whereSql(
  table: DatasetTable,
  where: DatasetQuery['where'] = {},
  alias = '',
): { shape: string; sql: string; values: DatasetValue[] } {
  const parts: string[] = []
  const shape: string[] = []
  const values: DatasetValue[] = []
  for (const [column, condition] of Object.entries(where)) {
    const name = alias + checkColumn(table, column)
    if (isPrefix(condition)) {
      parts.push(`${name} >= ? AND ${name} < ?`)
      shape.push(`${column}^`)
      values.push(condition.prefix, condition.prefix + top)
    } else if (isIn(condition)) {
      if (condition.in.length === 0) {
        parts.push('0')
        shape.push(`${column}[0]`)
      } else {
        parts.push(`${name} IN (${condition.in.map(() => '?').join(', ')})`)
        shape.push(`${column}[${condition.in.length}]`)
        values.push(...condition.in)
      }
    } else {
      parts.push(`${name} IS ?`)
      shape.push(`${column}=`)
      values.push(condition)
    }
  }
  return { shape: shape.join(','), sql: parts.length > 0 ? ` WHERE ${parts.join(' AND ')}` : '', values }
}

/**
 * The SELECT for a declarative query on one generation table. Column names are checked
 * against the table's declaration; values are always bound, never written into the SQL.
 *
 * @example
 * selectSql(table, 'ds_x__t__g1', { where: { org_nr: '123' }, orderBy: [{ column: 'amount', direction: 'desc' }], limit: 10 })
 * // { sql: 'SELECT "org_nr", "amount" FROM ds_x__t__g1 WHERE "org_nr" IS ? ORDER BY "amount" DESC LIMIT ?', values: ['123', 10], ... }
 */
export function selectSql(table: DatasetTable, name: string, query: DatasetQuery = {}): QuerySql {
  const where = whereSql(table, query.where)
  const order = (query.orderBy ?? []).map(
    ({ column, direction }) => `${checkColumn(table, column)} ${direction === 'desc' ? 'DESC' : 'ASC'}`,
  )
  const values = [...where.values]
  const columns = columnList(table, query.columns)
  let sql = `SELECT ${columns.sql} FROM ${name}${where.sql}`
  if (order.length > 0) sql += ` ORDER BY ${order.join(', ')}`
  if (query.limit !== undefined || query.offset !== undefined) {
    sql += ' LIMIT ? OFFSET ?'
    values.push(query.limit ?? -1, query.offset ?? 0)
  }
  const shape = `s|${table.name}|${columns.shape}|${where.shape}|${order.join(',')}|${query.limit !== undefined || query.offset !== undefined}`
  return { shape, sql, values }
}

/** The COUNT for a declarative condition on one generation table. */
export function countSql(table: DatasetTable, name: string, where: DatasetQuery['where']): QuerySql {
  const clause = whereSql(table, where)
  return {
    shape: `c|${table.name}|${clause.shape}`,
    sql: `SELECT count(*) FROM ${name}${clause.sql}`,
    values: clause.values,
  }
}

/**
 * The SELECT and COUNT for a full-text search, ranked by bm25 with the declared column weights
 * (SQLite's bm25 is lower for better matches). The ranking runs on the index's rowids alone and
 * only the page's rows are then read from the table: sorting every match with its columns
 * would copy each one's text, megabytes for a common word over long documents.
 *
 * @example
 * searchSql(table, 'ds_x__t__g1', 'fts_x__t__g1', { match: '"lov"*', limit: 20 })
 */
export function searchSql(
  table: DatasetTable,
  name: string,
  fts: string,
  search: DatasetSearch,
): { select: QuerySql; count: QuerySql } {
  const fullText = table.fullText
  if (!fullText) throw new TypeError(`Table ${table.name} has no full-text index`)
  const where = whereSql(table, search.where, 't.')
  const weights = fullText.columns.map((_, i) => String(fullText.weights?.[i] ?? 1)).join(', ')
  // Without conditions the index alone answers; with them, only their columns are read.
  const from = where.sql
    ? `FROM ${fts} f JOIN ${name} t ON t.rowid = f.rowid WHERE ${fts} MATCH ? AND ${where.sql.slice(' WHERE '.length)}`
    : `FROM ${fts} f WHERE ${fts} MATCH ?`
  const ranked =
    search.order === 'stored'
      ? `SELECT f.rowid AS id, 0 AS score ${from} ORDER BY id LIMIT ? OFFSET ?`
      : `SELECT f.rowid AS id, bm25(${fts}, ${weights}) AS score ${from} ORDER BY score, id LIMIT ? OFFSET ?`
  const columns = columnList(table, search.columns, 't.')
  return {
    select: {
      shape: `f|${table.name}|${search.order ?? 'rank'}|${columns.shape}|${where.shape}`,
      sql: `SELECT ${columns.sql}, p.score AS _rank FROM (${ranked}) p JOIN ${name} t ON t.rowid = p.id ORDER BY p.score, p.id`,
      values: [search.match, ...where.values, search.limit ?? -1, search.offset ?? 0],
    },
    count: {
      shape: `fc|${table.name}|${where.shape}`,
      sql: `SELECT count(*) ${from}`,
      values: [search.match, ...where.values],
    },
  }
}
