import type { DatasetDefinition, DatasetValue } from '../plugin/define-dataset.js'

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

/** A condition on one column: equal to a value, one of several values, or starting with a prefix. */
export type DatasetCondition = DatasetValue | { in: DatasetValue[] } | { prefix: string }

/** A lookup in one table: conditions joined by AND, an order, and a window. */
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

/**
 * Where the gateway finds loaded datasets; given as `createGateway({ datasets })`. The
 * built-in implementation is `createSqliteDatasetStore` from `@allmenning/datasets`.
 *
 * @example
 * const store: DatasetStore = { reader: () => undefined } // a store with nothing loaded
 */
export interface DatasetStore {
  /**
   * The loaded generation of `dataset`, or `undefined` when none is loaded (or it was made for
   * an older definition). Asked on every request of an operation that reads the dataset, cache
   * hits included, to key its answer by the generation: it should answer from memory, and
   * see a generation another process loaded by the next request (the SQLite store: by the
   * next that arrives in a later millisecond).
   */
  reader(dataset: DatasetDefinition): DatasetReader | undefined
  /**
   * Why `dataset` has no reader now, when the store knows better than "not loaded here": a
   * store following a published snapshot says it is still being fetched. Read only after
   * `reader` answered `undefined`; its text ends the 502 `dataset_not_loaded` message.
   */
  notLoadedReason?(dataset: DatasetDefinition): string | undefined
}
