import { statSync } from 'node:fs'
import { readLoadedDatasets, type LoadedDatasetEntry } from '../store/loaded-datasets-table.js'
import { openSqlite } from '../store/sqlite-connection.js'

/** A consistent copy of the store, and the datasets it holds. */
export interface StoreCopy {
  path: string
  bytes: number
  catalog: Map<string, LoadedDatasetEntry>
}

/**
 * Copies the store at `storePath` to `toPath` as it is at one instant, even while an import
 * writes to it: `VACUUM INTO` reads the whole file inside one read transaction (under WAL a
 * writer goes on committing beside it and the copy sees none of it), and it leaves out the free
 * pages that dropped generations leave behind, so the copy is as small as the data. The
 * online backup API (better-sqlite3's `db.backup()`) was the other way: it copies pages in
 * steps and starts over whenever another connection writes, so a long import can keep it from
 * ever finishing, and node:sqlite (Node 22 and newer) has it only from 22.16. The copy is
 * switched to the rollback journal so a reader can open it read-only on any disk without
 * creating `-wal` and `-shm` files beside it.
 *
 * @example
 * const copy = copyStore('data/allmenning.sqlite', '/tmp/snapshot.sqlite')
 * copy.catalog.get('aksjonaerregisteret')?.rows
 */
export function copyStore(storePath: string, toPath: string): StoreCopy {
  const source = openSqlite(storePath, { readonly: true })
  try {
    source.exec(`VACUUM INTO '${toPath.replaceAll("'", "''")}'`)
  } finally {
    source.close()
  }
  const copy = openSqlite(toPath)
  let catalog: Map<string, LoadedDatasetEntry>
  try {
    copy.exec('PRAGMA journal_mode = DELETE')
    catalog = readLoadedDatasets(copy)
  } finally {
    copy.close()
  }
  return { path: toPath, bytes: statSync(toPath).size, catalog }
}
