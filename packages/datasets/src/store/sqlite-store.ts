import { dirname } from 'node:path'
import { createLruMap, type DatasetStore } from '@allmenning/core/extension'
import type { DatasetDefinition, DatasetReader, DatasetTable, DatasetVersion } from '@allmenning/core/source'
import { ensureLoadedDatasetsTable, readLoadedDatasets, type LoadedDatasetEntry } from './loaded-datasets-table.js'
import { countSql, searchSql, selectSql, type QuerySql } from './query-sql.js'
import { fullTextTable, generationTable, tablesFingerprint } from './table-names.js'
import { openSqlite, type SqliteConnection, type SqliteStatement } from './sqlite-connection.js'
import { datasetLoadCommand } from './load-command.js'

// Taken from process.getBuiltinModule, not imported: an ESM import of node:fs reads every export,
// and its stream getters load Node's stream modules, a few ms of every cold start.
const { existsSync, mkdirSync } = process.getBuiltinModule('node:fs')

/** Options of {@link createSqliteDatasetStore}. */
export interface SqliteDatasetStoreOptions {
  /** The SQLite file. One per deployment; `allmenning datasets` writes it. */
  path: string
  /**
   * Open the file read-only: the gateway never writes to it, and it may be a file built
   * elsewhere and shipped (container image, Lambda layer, EFS). A missing file is not an
   * error: every dataset reads as not loaded until the file appears.
   */
  readonly?: boolean
}

/** A dataset store on one SQLite file, with what the command line needs beside reading. */
export interface SqliteDatasetStore extends DatasetStore {
  readonly path: string
  /** Every loaded dataset's entry (its generation, version and files), by id, as committed now. */
  loadedDatasets(): Map<string, LoadedDatasetEntry>
  /** @deprecated The same as {@link SqliteDatasetStore.loadedDatasets}, by its earlier name. */
  catalog(): Map<string, LoadedDatasetEntry>
  close(): void
}

const reopenAfterMs = 1000
/** Counts remembered per loaded generation. */
const countsKept = 10_000

function isMissingTable(error: unknown): boolean {
  return error instanceof Error && /no such table/.test(error.message)
}

/**
 * The plain store on one SQLite file, without a follower: what `createSqliteDatasetStore` (in
 * follow/create-sqlite-dataset-store.ts, the public factory) opens, and the command line with it.
 *
 * @example
 * const store = openSqliteDatasetStore({ path: './data/allmenning.sqlite', readonly: true })
 */
export function openSqliteDatasetStore(options: SqliteDatasetStoreOptions): SqliteDatasetStore {
  let db: SqliteConnection | undefined
  let triedAt = 0
  let dataVersion: SqliteStatement | undefined
  let seenVersion = -1
  // The millisecond (Date.now()) data_version was last read in; see refresh().
  let checkedAt = Number.NaN
  let entries = new Map<string, LoadedDatasetEntry>()
  const readers = new Map<string, { generation: number; reader: DatasetReader }>()
  const fingerprints = new WeakMap<DatasetDefinition, string>()

  function connection(): SqliteConnection | undefined {
    if (db) return db
    const now = Date.now()
    if (now - triedAt < reopenAfterMs) return undefined
    triedAt = now
    // A reader waits at most this long for a lock (WAL makes that rare) rather than hold up the event loop.
    const busyTimeoutMs = 200
    if (options.readonly) {
      if (!existsSync(options.path)) return undefined
      db = openSqlite(options.path, { readonly: true, busyTimeoutMs })
    } else {
      mkdirSync(dirname(options.path), { recursive: true })
      db = openSqlite(options.path, { busyTimeoutMs })
      // WAL lets this connection read while an import writes the next generation.
      db.exec('PRAGMA journal_mode = WAL')
      ensureLoadedDatasetsTable(db)
    }
    dataVersion = db.prepare('PRAGMA data_version')
    return db
  }

  /**
   * Reads the catalog again when another connection committed since it was last read. Asked
   * on every request that may read a dataset, cache hits included (its answer is cached under
   * the generation), so `data_version`, a statement with three system calls, is read at most
   * once a millisecond: a request's checks of several datasets cost one, and a stream of cache
   * hits costs one per millisecond, not one each. A commit is seen by every request that
   * arrives in a later millisecond; one in the same millisecond is as good as concurrent with it.
   */
  function refresh(database: SqliteConnection): void {
    const now = Date.now()
    if (now === checkedAt) return
    checkedAt = now
    const version = Number(dataVersion!.value())
    if (version === seenVersion) return
    seenVersion = version
    entries = readLoadedDatasets(database)
  }

  function fingerprint(dataset: DatasetDefinition): string {
    let known = fingerprints.get(dataset)
    if (!known) {
      known = tablesFingerprint(dataset)
      fingerprints.set(dataset, known)
    }
    return known
  }

  function loaded(dataset: DatasetDefinition): LoadedDatasetEntry | undefined {
    const database = connection()
    if (!database) return undefined
    refresh(database)
    const entry = entries.get(dataset.id)
    return entry && entry.fingerprint === fingerprint(dataset) ? entry : undefined
  }

  function makeReader(
    database: SqliteConnection,
    dataset: DatasetDefinition,
    entry: LoadedDatasetEntry,
  ): DatasetReader {
    const statements = new Map<string, SqliteStatement>()
    const counts = createLruMap<string, number>(countsKept)
    const tables = new Map<string, DatasetTable>(dataset.tables.map((t) => [t.name, t]))
    const version: DatasetVersion = {
      id: dataset.id,
      publishedAt: entry.publishedAt,
      loadedAt: entry.loadedAt,
      rows: entry.rows,
      files: entry.files.map((file) => ({ name: file.name, url: file.url })),
    }
    function table(name: string): DatasetTable {
      const found = tables.get(name)
      if (!found) throw new TypeError(`Dataset ${dataset.id} has no table "${name}"`)
      return found
    }
    function run(query: QuerySql, mode: 'all' | 'count') {
      let statement = statements.get(query.shape)
      if (!statement) {
        statement = database.prepare(query.sql)
        statements.set(query.shape, statement)
      }
      return mode === 'all' ? statement.all(query.values) : Number(statement.value(query.values))
    }
    // A newer generation may have been switched in (and this one dropped) since the catalog
    // was read; the lookup is then answered from the newer one.
    function newer(error: unknown): DatasetReader {
      if (!isMissingTable(error)) throw error
      seenVersion = -1
      checkedAt = Number.NaN
      const next = store.reader(dataset)
      if (!next || next === reader) throw error
      return next
    }
    const reader: DatasetReader = {
      version,
      async select<R>(name: string, query = {}) {
        try {
          return run(selectSql(table(name), generationTable(dataset.id, name, entry.generation), query), 'all') as R[]
        } catch (error) {
          return newer(error).select<R>(name, query)
        }
      },
      async search<R>(name: string, search: Parameters<DatasetReader['search']>[1]) {
        try {
          const sql = searchSql(
            table(name),
            generationTable(dataset.id, name, entry.generation),
            fullTextTable(dataset.id, name, entry.generation),
            search,
          )
          return { total: run(sql.count, 'count') as number, rows: run(sql.select, 'all') as R[] }
        } catch (error) {
          return newer(error).search<R>(name, search)
        }
      },
      async count(name, where) {
        try {
          // A generation never changes, so a count is worth keeping: paging through the holders
          // of a listed company asks for the same one on every page.
          const query = countSql(table(name), generationTable(dataset.id, name, entry.generation), where)
          const key = `${query.shape}\u0000${JSON.stringify(query.values)}`
          let counted = counts.get(key)
          if (counted === undefined) {
            counted = run(query, 'count') as number
            counts.set(key, counted)
          }
          return counted
        } catch (error) {
          return newer(error).count(name, where)
        }
      },
    }
    return reader
  }

  /** Not asked per request: always the loaded datasets as committed now. */
  function loadedDatasets(): Map<string, LoadedDatasetEntry> {
    const database = connection()
    if (!database) return new Map()
    checkedAt = Number.NaN
    refresh(database)
    return new Map(entries)
  }

  const store: SqliteDatasetStore = {
    path: options.path,
    reader(dataset) {
      const entry = loaded(dataset)
      if (!entry) return undefined
      const known = readers.get(dataset.id)
      if (known?.generation === entry.generation) return known.reader
      const reader = makeReader(db!, dataset, entry)
      readers.set(dataset.id, { generation: entry.generation, reader })
      return reader
    },
    // The command line is what fills this file.
    loadCommand: datasetLoadCommand,
    loadedDatasets,
    catalog: loadedDatasets,
    close() {
      db?.close()
      db = undefined
      readers.clear()
    },
  }
  return store
}
