import { hostname } from 'node:os'
import type { SqliteConnection } from './sqlite-connection.js'

/** Who holds the import lock of a dataset. */
export interface ImportLockHolder {
  pid: number
  host: string
  startedAt: string
}

/** The lock is held: another import of the same dataset into the same file is running. */
export class ImportLockedError extends Error {
  constructor(
    message: string,
    readonly holder: ImportLockHolder,
  ) {
    super(message)
    this.name = 'ImportLockedError'
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Who holds the lock of a dataset, read from its row; `undefined` when nobody does. */
function heldBy(db: SqliteConnection, datasetId: string): ImportLockHolder | undefined {
  const held = db
    .prepare('SELECT pid, host, started_at FROM allmenning_import_locks WHERE dataset_id = ?')
    .get([datasetId])
  return held ? { pid: Number(held.pid), host: String(held.host), startedAt: String(held.started_at) } : undefined
}

/**
 * Takes the import lock of one dataset in one store file, or throws {@link ImportLockedError}
 * naming the process that holds it. Two imports of the same dataset would otherwise drop each
 * other's half-written generation (an import starts by dropping what earlier imports left).
 * The lock is a row in the file itself, so it holds between processes (two `allmenning
 * datasets` commands, or the command line and a gateway's import worker) and between threads.
 * A lock left by a process that no longer runs on this host is taken over; one held from
 * another host (a file on shared storage) is respected. Returns the function that releases it.
 *
 * @example
 * const release = acquireImportLock(db, 'aksjonaerregisteret')
 * try { await importDataset(options) } finally { release() }
 */
export function acquireImportLock(db: SqliteConnection, datasetId: string): () => void {
  db.exec(`CREATE TABLE IF NOT EXISTS allmenning_import_locks (
    dataset_id TEXT PRIMARY KEY,
    token TEXT NOT NULL,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    started_at TEXT NOT NULL
  )`)
  const token = process.getBuiltinModule('node:crypto').randomUUID()
  const host = hostname()
  const check = () => {
    const holder = heldBy(db, datasetId)
    if (holder && (holder.host !== host || running(holder.pid))) {
      throw new ImportLockedError(
        `${datasetId} is already being imported into this store by process ${holder.pid} on ${holder.host} (started ${holder.startedAt}). ` +
          `Wait for that import to finish, then run this one again (if no import is running, "allmenning datasets unlock ${datasetId}" removes the lock).`,
        holder,
      )
    }
  }
  // A read first: it needs no lock of the file, so a held lock is reported at once rather than
  // after waiting for the holder's running transaction. Then checked again while writing.
  check()
  db.transaction(() => {
    check()
    db.prepare(
      'INSERT OR REPLACE INTO allmenning_import_locks (dataset_id, token, pid, host, started_at) VALUES (?, ?, ?, ?, ?)',
    ).run([datasetId, token, process.pid, host, new Date().toISOString()])
  }, true)
  return () => {
    if (db.inTransaction) db.exec('ROLLBACK')
    db.prepare('DELETE FROM allmenning_import_locks WHERE dataset_id = ? AND token = ?').run([datasetId, token])
  }
}

/**
 * Removes the import lock of a dataset whoever holds it: for a lock whose process is gone but
 * cannot be recognised as gone (its id now belongs to another program, or it ran on another
 * host). Returns who held it, or `undefined` when nothing did.
 *
 * @example
 * breakImportLock(db, 'aksjonaerregisteret') // { pid: 4242, host: 'builder', startedAt: '2026-11-23T03:00:00.000Z' }
 */
export function breakImportLock(db: SqliteConnection, datasetId: string): ImportLockHolder | undefined {
  const exists = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'allmenning_import_locks'")
    .get()
  if (!exists) return undefined
  const holder = heldBy(db, datasetId)
  if (holder) db.prepare('DELETE FROM allmenning_import_locks WHERE dataset_id = ?').run([datasetId])
  return holder
}
