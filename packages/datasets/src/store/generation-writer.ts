import { availableParallelism } from 'node:os'
import type { SqliteConnection, SqliteStatement } from './sqlite-connection.js'
import type { DatasetDefinition, DatasetRow, DatasetTable, DatasetValue } from '@allmenning/core/source'
import {
  ensureLoadedDatasetsTable,
  readLoadedDatasets,
  writeLoadedDatasetEntry,
  type LoadedDatasetEntry,
} from './loaded-datasets-table.js'
import { datasetTablePrefix, fullTextTable, generationTable, quote, tableGeneration } from './table-names.js'
import { trackDuplicateKeys, type DuplicateKeys } from './duplicate-keys.js'
import { createRowCheck } from './row-check.js'

const sqlTypes = { text: 'TEXT', integer: 'INTEGER', real: 'REAL' } as const
/** Rows written per transaction: enough that commits cost nothing, few enough that the WAL stays small. */
const rowsPerTransaction = 20_000
/** SQLite's page cache while the indexes are built, in KiB. */
const indexCacheKiB = 8192

/**
 * Rows bound to one INSERT statement. Each call into SQLite has a fixed cost (binding an
 * array, stepping and resetting the statement) about as large as writing a row, so rows are
 * written many to a statement; 999 is the fewest bound values any SQLite build allows.
 */
function rowsPerStatement(width: number): number {
  return Math.max(1, Math.min(64, Math.floor(999 / width)))
}

interface TableWriter {
  table: DatasetTable
  name: string
  columns: string[]
  /** Writes one row; `many` writes `perStatement` rows at once from `pending`. */
  insert: SqliteStatement
  many: SqliteStatement
  perStatement: number
  pending: DatasetValue[]
  pendingRows: number
  duplicates: DuplicateKeys | undefined
  /** The next row's sequence number, written as its rowid: duplicates are tracked by it. */
  next: number
  values: DatasetValue[]
}

function insertSql(name: string, columns: string[], rows = 1): string {
  const one = `(?, ${columns.map(() => '?').join(', ')})`
  return `INSERT INTO ${name} (rowid, ${columns.map(quote).join(', ')}) VALUES ${Array.from({ length: rows }, () => one).join(', ')}`
}

/**
 * Writes one new generation of a dataset beside the one that serves, then switches to it.
 * Tables are created bare, and rows sharing a key are merged and indexes built at the end
 * (faster than keeping indexes up to date row by row). Nothing a reader sees changes until
 * {@link GenerationWriter.switchTo} commits.
 *
 * @example
 * const writer = createGenerationWriter(db, dataset)
 * writer.add('aksjeposter', row)
 * writer.finish()
 * writer.switchTo({ publishedAt: '2024-12-31', files, malformed: 0, fingerprint: tablesFingerprint(dataset) })
 */
export interface GenerationWriter {
  readonly generation: number
  add(table: string, row: DatasetRow): void
  /** Writes one row given as its values in the table's column order, after one free slot (`values[0]`). */
  addValues(table: string, values: DatasetValue[]): void
  /** Writes what is buffered and builds the indexes. */
  finish(): void
  /** Makes this generation the loaded one and drops the one before, in one transaction. */
  switchTo(
    entry: Omit<LoadedDatasetEntry, 'id' | 'generation' | 'fingerprint' | 'rows' | 'loadedAt'> & {
      fingerprint: string
    },
  ): LoadedDatasetEntry
  /** Drops everything this generation wrote. */
  abandon(): void
  readonly rows: number
}

/** Options of {@link createGenerationWriter}. */
export interface GenerationWriterOptions {
  /** SQLite's page cache for the writing connection, in KiB: a larger one builds indexes faster. SQLite's default when absent. */
  cacheKiB?: number
}

export function createGenerationWriter(
  db: SqliteConnection,
  dataset: Pick<DatasetDefinition, 'id' | 'tables'>,
  options: GenerationWriterOptions = {},
): GenerationWriter {
  if (options.cacheKiB !== undefined) db.exec(`PRAGMA cache_size = -${Math.trunc(options.cacheKiB)}`)
  ensureLoadedDatasetsTable(db)
  const current = readLoadedDatasets(db).get(dataset.id)?.generation
  // Milliseconds since the epoch: unique per import and ordered, even across processes.
  const generation = Math.max(Date.now(), (current ?? 0) + 1)
  dropLeftovers(db, dataset.id, current)
  // No syncing while the new generation is written: its tables are not read until the switch,
  // and an import cut short is thrown away (the next one drops what it left). The switch
  // itself is committed with NORMAL, as every other write to the file.
  db.exec('PRAGMA synchronous = OFF')
  // The indexes are built once every row is in, when the thread that read the file has
  // finished: SQLite's sorter may then use a second core (measured: a two-million-row
  // import 13 s → 9.5 s on two cores).
  db.exec(`PRAGMA threads = ${availableParallelism() > 1 ? 2 : 0}`)

  const writers = new Map<string, TableWriter>()
  for (const table of dataset.tables) {
    const name = generationTable(dataset.id, table.name, generation)
    const columns = Object.keys(table.columns)
    db.exec(`CREATE TABLE ${name} (${columns.map((c) => `${quote(c)} ${sqlTypes[table.columns[c]!]}`).join(', ')})`)
    const duplicates = table.key?.length ? trackDuplicateKeys(db, table, name, columns) : undefined
    const perStatement = rowsPerStatement(columns.length + 1)
    writers.set(table.name, {
      table,
      name,
      columns,
      insert: db.prepare(insertSql(name, columns)),
      many: db.prepare(insertSql(name, columns, perStatement)),
      perStatement,
      pending: new Array<DatasetValue>(perStatement * (columns.length + 1)).fill(null),
      pendingRows: 0,
      duplicates,
      next: 1,
      values: [0, ...columns.map(() => null)],
    })
  }

  const inOrder = [...writers.values()]
  const checkRow = createRowCheck(dataset)

  // Rows go to SQLite 64 at a time inside a transaction that is committed every so many rows,
  // so a file of millions of rows holds no more than a statement's rows in memory.
  let rows = 0
  let inTransaction = 0
  /** Writes the rows still waiting for a full statement, one by one. */
  const flush = (writer: TableWriter) => {
    const width = writer.values.length
    for (let row = 0; row < writer.pendingRows; row++)
      writer.insert.run(writer.pending.slice(row * width, (row + 1) * width))
    writer.pendingRows = 0
  }
  const commit = () => {
    for (const writer of writers.values()) flush(writer)
    if (db.inTransaction) db.exec('COMMIT')
    inTransaction = 0
  }

  /** Writes one row whose columns are `values[1..]`; `values[0]` becomes its rowid, its place in the file. */
  const write = (writer: TableWriter, values: DatasetValue[]) => {
    values[0] = writer.next++
    // Counted here rather than asked of SQLite: one call less into it per row.
    // IMMEDIATE: the write lock is taken (or waited for) here, before the duplicate tracking
    // reads; a transaction that read first could not wait for another writer's commit.
    if (inTransaction === 0 && !db.inTransaction) db.exec('BEGIN IMMEDIATE')
    if (!writer.duplicates?.setAside(values)) {
      const pending = writer.pending
      const width = values.length
      const at = writer.pendingRows * width
      for (let i = 0; i < width; i++) pending[at + i] = values[i]!
      if (++writer.pendingRows === writer.perStatement) {
        writer.many.run(pending)
        writer.pendingRows = 0
      }
    }
    rows++
    if (++inTransaction >= rowsPerTransaction) commit()
  }

  return {
    generation,
    get rows() {
      return rows
    },
    add(tableName, row) {
      const writer = inOrder[checkRow(tableName, row)]!
      // One array per table, refilled for every row, and copied into the statement's batch.
      const values = writer.values
      const columns = writer.columns
      for (let i = 0; i < columns.length; i++) values[i + 1] = row[columns[i]!] ?? null
      write(writer, values)
    },
    addValues(tableName, values) {
      const writer = writers.get(tableName)
      if (!writer) throw new TypeError(`Dataset ${dataset.id} has no table "${tableName}"`)
      write(writer, values)
    },
    finish() {
      commit()
      // A sample of each index is enough for the planner to choose between indexes.
      db.exec('PRAGMA analysis_limit = 1000')
      // Each sorting thread takes up to the page cache for its share: a smaller cache keeps two
      // of them and the pages already held within the import's memory budget.
      db.exec(`PRAGMA cache_size = -${indexCacheKiB}`)
      for (const writer of writers.values()) {
        db.transaction(() => writer.duplicates?.merge(), true)
        ;(writer.table.indexes ?? []).forEach((columns, i) => {
          db.exec(`CREATE INDEX ${writer.name}__i${i} ON ${writer.name} (${columns.map(quote).join(', ')})`)
        })
        const fullText = writer.table.fullText
        if (fullText) {
          // External content: the index keeps only the terms, the text stays in the table once.
          // remove_diacritics 0: æ, ø and å are letters of their own in Norwegian, not a, o, a.
          const fts = fullTextTable(dataset.id, writer.table.name, generation)
          const columns = fullText.columns.map(quote).join(', ')
          db.exec(
            `CREATE VIRTUAL TABLE ${fts} USING fts5(${columns}, content='${writer.name}', content_rowid='rowid', tokenize='unicode61 remove_diacritics 0')`,
          )
          db.exec(`INSERT INTO ${fts} (${fts}) VALUES ('rebuild')`)
        }
        // Statistics let the planner pick the right index where a lookup could use several.
        db.exec(`ANALYZE ${writer.name}`)
      }
    },
    switchTo(entry) {
      db.exec('PRAGMA synchronous = NORMAL')
      const counted = [...writers.values()].reduce(
        (sum, writer) => sum + Number(db.prepare(`SELECT count(*) FROM ${writer.name}`).value()),
        0,
      )
      const done: LoadedDatasetEntry = {
        ...entry,
        id: dataset.id,
        generation,
        rows: counted,
        loadedAt: new Date().toISOString(),
      }
      db.transaction(() => {
        writeLoadedDatasetEntry(db, done)
        dropLeftovers(db, dataset.id, generation)
      }, true)
      return done
    },
    abandon() {
      if (db.inTransaction) db.exec('ROLLBACK')
      for (const writer of writers.values()) {
        db.exec(`DROP TABLE IF EXISTS ${fullTextTable(dataset.id, writer.table.name, generation)}`)
        db.exec(`DROP TABLE IF EXISTS ${writer.name}`)
      }
    },
  }
}

/** Drops every table of the dataset that does not belong to generation `keep` (earlier generations, interrupted imports). */
function dropLeftovers(db: SqliteConnection, datasetId: string, keep: number | undefined): void {
  // Full-text tables first, by their own name only: dropping one drops its shadow tables.
  const ftsPrefix = `fts_${datasetId}__`
  const indexes = db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND substr(name, 1, ?) = ? AND sql LIKE 'CREATE VIRTUAL TABLE%'",
    )
    .all([ftsPrefix.length, ftsPrefix])
    .map((row) => String(row.name))
  for (const name of indexes) {
    if (tableGeneration(name) !== keep) db.exec(`DROP TABLE ${name}`)
  }
  const prefix = datasetTablePrefix(datasetId)
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND substr(name, 1, ?) = ?")
    .all([prefix.length, prefix])
    .map((row) => String(row.name))
  for (const name of tables) {
    if (tableGeneration(name) !== keep) db.exec(`DROP TABLE ${name}`)
  }
}
