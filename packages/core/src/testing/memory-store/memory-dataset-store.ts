import type {
  DatasetCondition,
  DatasetDefinition,
  DatasetQuery,
  DatasetReader,
  DatasetRow,
  DatasetSearch,
  DatasetTable,
  DatasetValue,
  DatasetVersion,
} from '@allmenning/core/source'
import type { DatasetStore } from '@allmenning/core/extension'
import { createFullTextIndex, type FullTextIndex } from './full-text-index.js'
import { parseFullTextQuery } from './full-text-query.js'
import { compareValues, withAffinity } from './sqlite-values.js'
import { readDatasetFiles, type DatasetFileInput, type DatasetFileSample } from './dataset-file-rows.js'

/** What a load records of where its rows came from; both optional. */
export interface MemoryLoadVersion {
  /** The publisher's date of the data. Default `null`. */
  publishedAt?: string | null
  /** The files the rows were read from. Default none. */
  files?: Array<{ name: string; url: string | null }>
}

/** What {@link MemoryDatasetStore.load} did: rows given, rows kept after rows sharing a key were merged. */
export interface MemoryLoadResult {
  dataset: string
  rows: number
  merged: number
  version: DatasetVersion
}

/** What {@link MemoryDatasetStore.loadFiles} did: records read and refused besides what the load did. */
export interface MemoryFileLoadResult extends MemoryLoadResult {
  records: number
  malformed: number
  samples: DatasetFileSample[]
}

/** Options of {@link createMemoryDatasetStore}. */
export interface MemoryDatasetStoreOptions {
  /** How an operator would load a dataset, named by the `dataset_not_loaded` error; none by default. */
  loadCommand?: (dataset: DatasetDefinition) => string
}

/** A dataset store in memory for tests, loaded from plain rows. */
export interface MemoryDatasetStore extends DatasetStore {
  /**
   * Loads `rows` (by table name) as the next generation of `dataset`, as an import would:
   * each row checked against the table's columns, values stored with SQLite's column
   * affinity, rows sharing a `key` merged (`sum` added up, `keep` first or last). Lookups
   * answer from the generation before until the promise resolves.
   */
  load(
    dataset: DatasetDefinition,
    rows: Record<string, readonly DatasetRow[]>,
    version?: MemoryLoadVersion,
  ): Promise<MemoryLoadResult>
  /**
   * Loads files of `dataset` (see {@link DatasetFileInput}) as the next generation: their
   * records through the dataset's own mapping, as `allmenning datasets import` maps them, then
   * as {@link MemoryDatasetStore.load}. The version lists the files.
   */
  loadFiles(
    dataset: DatasetDefinition,
    inputs: readonly DatasetFileInput[],
    version?: { publishedAt?: string | null },
  ): Promise<MemoryFileLoadResult>
  /** Forgets every loaded generation. */
  clear(): void
}

interface LoadedTable {
  table: DatasetTable
  rows: DatasetRow[]
  index: FullTextIndex | undefined
}

interface Generation {
  shape: string
  version: DatasetVersion
  tables: Map<string, LoadedTable>
  reader?: DatasetReader
}

/** Rows a load handles before it lets other work run, so lookups during a load see the generation before. */
const rowsPerTurn = 5_000
const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 0))

/** What identifies a definition's tables: a generation loaded for other tables reads as not loaded. */
function tablesShape(dataset: DatasetDefinition): string {
  return JSON.stringify(
    dataset.tables.map((t) => [
      t.name,
      Object.entries(t.columns),
      t.key ?? [],
      t.sum ?? [],
      t.keep ?? 'first',
      t.fullText ?? null,
    ]),
  )
}

function checkColumn(table: DatasetTable, column: string): DatasetTable['columns'][string] {
  if (!Object.hasOwn(table.columns, column)) throw new TypeError(`Table ${table.name} has no column "${column}"`)
  return table.columns[column]!
}

function isPrefix(condition: DatasetCondition): condition is { prefix: string } {
  return typeof condition === 'object' && condition !== null && 'prefix' in condition
}
function isIn(condition: DatasetCondition): condition is { in: DatasetValue[] } {
  return typeof condition === 'object' && condition !== null && 'in' in condition
}

// Above every code point: the SQLite store reads a prefix as `prefix <= x < prefix + top`.
const top = '\u{10FFFF}'

/** A test of one row for `where`, the columns checked first and values given the column's affinity, as SQLite compares them. */
function rowFilter(table: DatasetTable, where: DatasetQuery['where'] = {}): (row: DatasetRow) => boolean {
  const tests: Array<(row: DatasetRow) => boolean> = []
  for (const [column, condition] of Object.entries(where)) {
    const type = checkColumn(table, column)
    if (isPrefix(condition)) {
      const from = withAffinity(type, condition.prefix)
      const to = withAffinity(type, condition.prefix + top)
      // A comparison with NULL is never true.
      tests.push(
        (row) => row[column] !== null && compareValues(row[column]!, from) >= 0 && compareValues(row[column]!, to) < 0,
      )
    } else if (isIn(condition)) {
      const values = condition.in.map((value) => withAffinity(type, value))
      tests.push(
        (row) =>
          row[column] !== null && values.some((value) => value !== null && compareValues(row[column]!, value) === 0),
      )
    } else {
      const value = withAffinity(type, condition)
      tests.push(
        (row) => compareValues(row[column] ?? null, value) === 0 && (row[column] === null) === (value === null),
      )
    }
  }
  return (row) => tests.every((test) => test(row))
}

function pick(table: DatasetTable, row: DatasetRow, columns: readonly string[] | undefined): DatasetRow {
  const out: DatasetRow = {}
  for (const column of columns ?? Object.keys(table.columns)) out[column] = row[column] ?? null
  return out
}

/** The window SQLite's `LIMIT ? OFFSET ?` keeps: a negative limit is none. */
function windowed<T>(rows: T[], limit: number | undefined, offset: number | undefined): T[] {
  const start = Math.max(0, offset ?? 0)
  return limit === undefined || limit < 0 ? rows.slice(start) : rows.slice(start, start + limit)
}

/** Rows sharing the table's key merged as the SQLite import merges them; the group takes its first row's place. */
function mergeKeys(table: DatasetTable, rows: DatasetRow[]): { rows: DatasetRow[]; merged: number } {
  const key = table.key ?? []
  if (key.length === 0) return { rows, merged: 0 }
  const sums = table.sum ?? []
  const groups = new Map<string, DatasetRow[]>()
  for (const row of rows) {
    const id = JSON.stringify(key.map((column) => row[column] ?? null))
    const group = groups.get(id)
    if (group) group.push(row)
    else groups.set(id, [row])
  }
  let merged = 0
  const out: DatasetRow[] = []
  for (const group of groups.values()) {
    if (group.length === 1) {
      out.push(group[0]!)
      continue
    }
    merged++
    const kept = { ...(table.keep === 'last' ? group[group.length - 1]! : group[0]!) }
    for (const column of sums) {
      // SQL's sum(): NULLs are left out, and a group of NULLs sums to NULL.
      const values = group
        .map((row) => row[column])
        .filter((value): value is number | string => value !== null && value !== undefined)
      kept[column] =
        values.length === 0
          ? null
          : values.reduce<number>((sum, value) => sum + (typeof value === 'number' ? value : Number(value) || 0), 0)
    }
    out.push(kept)
  }
  return { rows: out, merged }
}

/**
 * A `DatasetStore` that holds its datasets in memory, for tests of sources that read
 * datasets: no SQLite and no files, so a source's tests need no dependency on
 * `@allmenning/datasets`. It keeps the store contract (`runDatasetStoreContract`) as the
 * SQLite store does and answers the same lookups with the same rows: conditions and order
 * by SQLite's rules, full-text search by FTS5's query language, tokenizer (`unicode61`,
 * diacritics kept) and bm25 ranking. Each load is a new generation, seen by the next call of
 * `reader`.
 *
 * @example
 * import { createGateway } from '@allmenning/core'
 * import type { DatasetDefinition, SourceDefinition } from '@allmenning/core/source'
 * declare const holdings: DatasetDefinition // one table, holdings: org, owner, shares
 * declare const source: SourceDefinition // reads holdings
 * const datasets = createMemoryDatasetStore()
 * await datasets.load(holdings, { holdings: [{ org: '976030788', owner: 'NORDMANN OLA', shares: 150 }] }, { publishedAt: '2024-12-31' })
 * const gateway = createGateway({ sources: [source], datasets })
 */
export function createMemoryDatasetStore(options: MemoryDatasetStoreOptions = {}): MemoryDatasetStore {
  const generations = new Map<string, Generation>()
  let lastLoadedAt = 0

  function makeReader(dataset: DatasetDefinition, generation: Generation): DatasetReader {
    function table(name: string): LoadedTable {
      const found = generation.tables.get(name)
      if (!found) throw new TypeError(`Dataset ${dataset.id} has no table "${name}"`)
      return found
    }
    function ordered(loaded: LoadedTable, query: DatasetQuery): DatasetRow[] {
      const keep = rowFilter(loaded.table, query.where)
      const order = (query.orderBy ?? []).map(({ column, direction }) => ({
        column,
        sign: direction === 'desc' ? -1 : 1,
        type: checkColumn(loaded.table, column),
      }))
      for (const column of query.columns ?? []) checkColumn(loaded.table, column)
      const rows = loaded.rows.filter(keep)
      if (order.length > 0) {
        // Array sort is stable: rows equal on every ordered column stay in loaded order.
        rows.sort((a, b) => {
          for (const { column, sign } of order) {
            const compared = compareValues(a[column] ?? null, b[column] ?? null)
            if (compared !== 0) return compared * sign
          }
          return 0
        })
      }
      return rows
    }
    return {
      version: generation.version,
      async select<R>(name: string, query: DatasetQuery = {}) {
        const loaded = table(name)
        const rows = ordered(loaded, query)
        return windowed(rows, query.limit, query.offset).map((row) => pick(loaded.table, row, query.columns)) as R[]
      },
      async count(name, where) {
        const loaded = table(name)
        return loaded.rows.filter(rowFilter(loaded.table, where)).length
      },
      async search<R>(name: string, search: DatasetSearch) {
        const loaded = table(name)
        const fullText = loaded.table.fullText
        if (!fullText || !loaded.index) throw new TypeError(`Table ${loaded.table.name} has no full-text index`)
        const keep = rowFilter(loaded.table, search.where)
        for (const column of search.columns ?? []) checkColumn(loaded.table, column)
        const scores = loaded.index.match(parseFullTextQuery(search.match, fullText.columns))
        const hits = [...scores].filter(([row]) => keep(loaded.rows[row]!))
        // Best first, then as loaded (the SQLite store orders by score, then rowid); stored order is load order.
        if (search.order === 'stored') hits.sort(([a], [b]) => a - b)
        else hits.sort(([a, x], [b, y]) => x - y || a - b)
        const page = windowed(hits, search.limit, search.offset)
        return {
          total: hits.length,
          rows: page.map(([row, score]) => ({
            ...pick(loaded.table, loaded.rows[row]!, search.columns),
            _rank: search.order === 'stored' ? 0 : score,
          })) as R[],
        }
      },
    }
  }

  const store: MemoryDatasetStore = {
    reader(dataset) {
      const generation = generations.get(dataset.id)
      if (!generation || generation.shape !== tablesShape(dataset)) return undefined
      generation.reader ??= makeReader(dataset, generation)
      return generation.reader
    },
    ...(options.loadCommand ? { loadCommand: options.loadCommand } : {}),
    async load(dataset, given, version = {}) {
      const tables = new Map<string, LoadedTable>()
      for (const name of Object.keys(given)) {
        if (!dataset.tables.some((table) => table.name === name))
          throw new TypeError(`Dataset ${dataset.id} has no table "${name}"`)
      }
      let total = 0
      let merged = 0
      let handled = 0
      for (const table of dataset.tables) {
        const columns = Object.entries(table.columns)
        const stored: DatasetRow[] = []
        for (const row of given[table.name] ?? []) {
          const unknown = Object.keys(row).filter((column) => !Object.hasOwn(table.columns, column))
          if (unknown.length > 0)
            throw new TypeError(
              `Dataset ${dataset.id}: a row for ${table.name} has columns it does not declare: ${unknown.join(', ')}`,
            )
          const values: DatasetRow = {}
          for (const [column, type] of columns) values[column] = withAffinity(type, row[column] ?? null)
          stored.push(values)
          if (++handled % rowsPerTurn === 0) await nextTurn()
        }
        const kept = mergeKeys(table, stored)
        merged += kept.merged
        total += kept.rows.length
        const fullText = table.fullText
        const index = fullText
          ? createFullTextIndex(
              kept.rows,
              fullText.columns,
              fullText.columns.map((_, i) => fullText.weights?.[i] ?? 1),
            )
          : undefined
        tables.set(table.name, { table, rows: kept.rows, index })
      }
      if (total === 0) throw new Error(`The rows given hold no rows for ${dataset.id}. Nothing was changed.`)
      // A load is asynchronous like an import: lookups made meanwhile answer from the generation before.
      await nextTurn()
      // Answers are cached under loadedAt, so every generation names itself differently.
      lastLoadedAt = Math.max(Date.now(), lastLoadedAt + 1)
      const loaded: DatasetVersion = {
        id: dataset.id,
        publishedAt: version.publishedAt ?? null,
        loadedAt: new Date(lastLoadedAt).toISOString(),
        rows: total,
        files: (version.files ?? []).map((file) => ({ name: file.name, url: file.url })),
      }
      generations.set(dataset.id, { shape: tablesShape(dataset), version: loaded, tables })
      return { dataset: dataset.id, rows: total, merged, version: loaded }
    },
    async loadFiles(dataset, inputs, version = {}) {
      const read = await readDatasetFiles(dataset, inputs)
      const files = inputs.map((input) => ({ name: input.name ?? input.file, url: input.url ?? null }))
      const loaded = await store.load(dataset, read.rows, { publishedAt: version.publishedAt ?? null, files })
      return { ...loaded, records: read.records, malformed: read.malformed, samples: read.samples }
    },
    clear() {
      generations.clear()
    },
  }
  return store
}
