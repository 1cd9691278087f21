import type { SqliteConnection } from './sqlite-connection.js'

/** One file a loaded generation was made from, with what `sync` needs to ask for it conditionally. */
export interface LoadedDatasetFile {
  name: string
  /** The URL it was downloaded from, or `null` for a local file that was imported. */
  url: string | null
  /** The local path it was imported from, for imported files. */
  path?: string
  etag?: string | null
  lastModified?: string | null
  bytes: number
}

/**
 * One loaded dataset: a row of the table (`allmenning_datasets`) that records which generation of
 * each dataset serves, from which files (what `store.loadedDatasets()` returns, by id).
 */
export interface LoadedDatasetEntry {
  id: string
  generation: number
  fingerprint: string
  publishedAt: string | null
  loadedAt: string
  rows: number
  malformed: number
  files: LoadedDatasetFile[]
}

interface CatalogRow {
  id: string
  generation: number
  fingerprint: string
  published_at: string | null
  loaded_at: string
  rows: number
  malformed: number
  files: string
}

/** Creates the store's catalog table (the loaded versions) when the file is new. */
export function ensureLoadedDatasetsTable(db: SqliteConnection): void {
  db.exec(`CREATE TABLE IF NOT EXISTS allmenning_datasets (
    id TEXT PRIMARY KEY,
    generation INTEGER NOT NULL,
    fingerprint TEXT NOT NULL,
    published_at TEXT,
    loaded_at TEXT NOT NULL,
    rows INTEGER NOT NULL,
    malformed INTEGER NOT NULL,
    files TEXT NOT NULL
  )`)
}

/** Whether the file has a catalog yet (a read-only store cannot create one). */
export function hasLoadedDatasetsTable(db: SqliteConnection): boolean {
  return (
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'allmenning_datasets'").get() !== undefined
  )
}

/**
 * Every loaded dataset, by id.
 *
 * @example
 * readLoadedDatasets(db).get('aksjonaerregisteret')?.rows
 */
export function readLoadedDatasets(db: SqliteConnection): Map<string, LoadedDatasetEntry> {
  const entries = new Map<string, LoadedDatasetEntry>()
  if (!hasLoadedDatasetsTable(db)) return entries
  for (const row of db.prepare('SELECT * FROM allmenning_datasets').all() as unknown as CatalogRow[]) {
    entries.set(row.id, {
      id: row.id,
      generation: row.generation,
      fingerprint: row.fingerprint,
      publishedAt: row.published_at,
      loadedAt: row.loaded_at,
      rows: row.rows,
      malformed: row.malformed,
      files: JSON.parse(row.files) as LoadedDatasetFile[],
    })
  }
  return entries
}

/** Records a generation as the loaded one; runs inside the switching transaction. */
export function writeLoadedDatasetEntry(db: SqliteConnection, entry: LoadedDatasetEntry): void {
  db.prepare(
    `INSERT INTO allmenning_datasets (id, generation, fingerprint, published_at, loaded_at, rows, malformed, files)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET generation = excluded.generation, fingerprint = excluded.fingerprint,
       published_at = excluded.published_at, loaded_at = excluded.loaded_at, rows = excluded.rows,
       malformed = excluded.malformed, files = excluded.files`,
  ).run([
    entry.id,
    entry.generation,
    entry.fingerprint,
    entry.publishedAt,
    entry.loadedAt,
    entry.rows,
    entry.malformed,
    JSON.stringify(entry.files),
  ])
}

/** @deprecated Renamed {@link LoadedDatasetEntry} ("catalog" named four different things). */
export type CatalogEntry = LoadedDatasetEntry

/** @deprecated Renamed {@link LoadedDatasetFile} ("catalog" named four different things). */
export type CatalogFile = LoadedDatasetFile
