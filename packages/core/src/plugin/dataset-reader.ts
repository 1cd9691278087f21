import type { DatasetValue } from './dataset-value.js'

/** Which version of a dataset answered: what `_meta.datasets` reports. */
export interface DatasetVersion {
  id: string
  /** The publisher's date for the data (Last-Modified, a listing date, or the date given at import), when known. */
  publishedAt: string | null
  /**
   * When this generation was loaded into the store (ISO 8601). It also names the generation:
   * answers read from a dataset are cached under it, so each generation needs its own.
   */
  loadedAt: string
  /** Rows loaded, over every table. */
  rows: number
  /** The files it was loaded from: their URLs when downloaded, their names when imported. */
  files: Array<{ name: string; url: string | null }>
}

/**
 * A condition on one column: equal to a value (`null` matches the rows whose value is null),
 * one of several values (an empty list matches no row), or starting with a prefix (plain
 * text: `%` and `_` are no wildcards).
 */
export type DatasetCondition = DatasetValue | { in: DatasetValue[] } | { prefix: string }

/** A lookup in one table: conditions joined by AND, an order (rows come in no set order without one), and a window. */
export interface DatasetQuery {
  where?: Record<string, DatasetCondition>
  /** The columns to read, every declared one when absent: a lookup that needs no long text leaves it on disk. */
  columns?: readonly string[]
  orderBy?: Array<{ column: string; direction?: 'asc' | 'desc' }>
  limit?: number
  offset?: number
}

/** A full-text search in a table that declares `fullText`: an FTS5 match expression, best matches first. */
export interface DatasetSearch {
  /** FTS5 query syntax, e.g. `"aksjeloven"*`; the caller builds it from user text. */
  match: string
  /** Conditions on the table's own columns besides the match. */
  where?: DatasetQuery['where']
  /** The columns to read for the page's rows, every declared one when absent. */
  columns?: readonly string[]
  limit?: number
  offset?: number
  /**
   * `rank` (the default): best matches first, by bm25 with the table's weights. `stored`: in
   * the order the rows were loaded, `_rank` 0, so the index stops at the page instead of
   * scoring every match; for a term so common that scoring it costs much and tells little.
   */
  order?: 'rank' | 'stored'
}

/**
 * Reads the loaded generation of one dataset. Lookups are declarative so any store can
 * answer them (SQLite here, a server database elsewhere) and operation code never writes SQL.
 *
 * Every lookup is answered whole from one generation, also while the next one is being
 * loaded. A reader taken before a new generation was loaded may answer from its own
 * generation or from the newer one, but does not fail for that. A table or a column the
 * dataset does not declare, or a search in a table without `fullText`, is refused: the
 * promise rejects with an error naming it, and the reader goes on answering.
 * `runDatasetStoreContract` from `@allmenning/core/conformance` checks all of this.
 */
export interface DatasetReader {
  readonly version: DatasetVersion
  /** Rows of `table` matching `query`, with the declared columns. */
  select<R = Record<string, DatasetValue>>(table: string, query?: DatasetQuery): Promise<R[]>
  /** How many rows of `table` match `where`. */
  count(table: string, where?: DatasetQuery['where']): Promise<number>
  /**
   * Rows of `table` matching a full-text search, best first, and how many match in all. Each
   * row also carries `_rank`, its score (lower is better), to merge the hits of several tables.
   */
  search<R = Record<string, DatasetValue>>(table: string, search: DatasetSearch): Promise<{ total: number; rows: R[] }>
}
