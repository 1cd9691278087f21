import { createRequire } from 'node:module'
import type BetterSqlite3 from 'better-sqlite3'

/** A prepared statement: values are bound by position. */
export interface SqliteStatement {
  all(values?: readonly unknown[]): Record<string, unknown>[]
  get(values?: readonly unknown[]): Record<string, unknown> | undefined
  /** The first column of the first row. */
  value(values?: readonly unknown[]): unknown
  run(values?: readonly unknown[]): void
}

/** One open SQLite file, whichever binding opened it. */
export interface SqliteConnection {
  /** `node:sqlite` (Node 22.13 and newer) or `better-sqlite3` (Node 20). */
  readonly binding: 'node:sqlite' | 'better-sqlite3'
  exec(sql: string): void
  prepare(sql: string): SqliteStatement
  readonly inTransaction: boolean
  /** Runs `work` in one transaction (`BEGIN IMMEDIATE` when `immediate`), rolled back if it throws. */
  transaction<T>(work: () => T, immediate?: boolean): T
  close(): void
}

interface NodeSqliteStatement {
  all(...values: unknown[]): Record<string, unknown>[]
  get(...values: unknown[]): Record<string, unknown> | undefined
  run(...values: unknown[]): unknown
}
interface NodeSqliteDatabase {
  exec(sql: string): void
  prepare(sql: string): NodeSqliteStatement
  close(): void
  readonly isTransaction?: boolean
}
type NodeSqlite = { DatabaseSync: new (path: string, options?: { readOnly?: boolean }) => NodeSqliteDatabase }

const require = createRequire(import.meta.url)

function builtInSqlite(): NodeSqlite | undefined {
  if (process.env.ALLMENNING_SQLITE === 'better-sqlite3') return undefined
  const getBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule
  try {
    // Node 22.13 and newer have SQLite built in (unflagged); Node 20 does not.
    return (getBuiltin ? getBuiltin('node:sqlite') : require('node:sqlite')) as NodeSqlite | undefined
  } catch {
    return undefined
  }
}

function withTransaction<T>(connection: SqliteConnection, work: () => T, immediate: boolean): T {
  connection.exec(immediate ? 'BEGIN IMMEDIATE' : 'BEGIN')
  try {
    const result = work()
    connection.exec('COMMIT')
    return result
  } catch (error) {
    if (connection.inTransaction) connection.exec('ROLLBACK')
    throw error
  }
}

function openBuiltIn(sqlite: NodeSqlite, path: string, readonly: boolean): SqliteConnection {
  const db = new sqlite.DatabaseSync(path, { readOnly: readonly })
  let depth = 0
  const connection: SqliteConnection = {
    binding: 'node:sqlite',
    exec(sql) {
      db.exec(sql)
      // Older node:sqlite releases have no isTransaction; follow BEGIN/COMMIT/ROLLBACK instead.
      if (/^\s*BEGIN/i.test(sql)) depth = 1
      else if (/^\s*(COMMIT|ROLLBACK|END)/i.test(sql)) depth = 0
    },
    prepare(sql) {
      const statement = db.prepare(sql)
      return {
        all: (values = []) => statement.all(...values),
        get: (values = []) => statement.get(...values),
        value: (values = []) => {
          const row = statement.get(...values)
          return row === undefined ? undefined : Object.values(row)[0]
        },
        run: (values = []) => void statement.run(...values),
      }
    },
    get inTransaction() {
      return db.isTransaction ?? depth > 0
    },
    transaction: (work, immediate = false) => withTransaction(connection, work, immediate),
    close: () => db.close(),
  }
  return connection
}

function openBetterSqlite3(path: string, readonly: boolean): SqliteConnection {
  const Database = require('better-sqlite3') as typeof BetterSqlite3
  const db = new Database(path, readonly ? { readonly: true, fileMustExist: true } : {})
  const connection: SqliteConnection = {
    binding: 'better-sqlite3',
    exec: (sql) => void db.exec(sql),
    prepare(sql) {
      const statement = db.prepare(sql)
      const rows = statement.reader
      return {
        all: (values = []) => (rows ? statement.all(values) : []) as Record<string, unknown>[],
        get: (values = []) => (rows ? statement.get(values) : undefined) as Record<string, unknown> | undefined,
        value: (values = []) => {
          const row = statement.get(values) as Record<string, unknown> | undefined
          return row === undefined ? undefined : Object.values(row)[0]
        },
        run: (values = []) => void statement.run(values),
      }
    },
    get inTransaction() {
      return db.inTransaction
    },
    transaction: (work, immediate = false) => withTransaction(connection, work, immediate),
    close: () => void db.close(),
  }
  return connection
}

/** How long a connection waits for another one's lock before it fails with "database is locked". */
const defaultBusyTimeoutMs = 5000

/** Options of {@link openSqlite}. */
export interface OpenSqliteOptions {
  readonly?: boolean
  /**
   * How long a statement waits for a lock another connection holds, in milliseconds. Default
   * 5000. Set before anything else is run on the connection: even switching to WAL, or the
   * first read after another connection closed the file (the last one out checkpoints and
   * holds the file while it does), can meet a lock.
   */
  busyTimeoutMs?: number
}

/**
 * Opens a SQLite file with Node's built-in `node:sqlite` where Node has it (22.13 and newer:
 * what Lambda runs), and with better-sqlite3 on Node 20. better-sqlite3 12, the last major
 * that supports Node 20, crashes the process on Node 24.19 and newer when a statement is
 * garbage-collected (its native wrapper removes a cleanup hook with no environment current),
 * so it is only loaded where nothing else can open the file. `ALLMENNING_SQLITE=better-sqlite3`
 * forces it. Both bindings wait the same time for locks: better-sqlite3 waits 5 s unless told
 * otherwise, node:sqlite not at all, so the timeout is always set here.
 *
 * @example
 * const db = openSqlite('data/allmenning.sqlite', { readonly: true })
 * db.prepare('SELECT count(*) FROM allmenning_datasets').value() // 3
 */
export function openSqlite(path: string, options: OpenSqliteOptions = {}): SqliteConnection {
  const sqlite = builtInSqlite()
  const readonly = options.readonly === true
  const connection = sqlite ? openBuiltIn(sqlite, path, readonly) : openBetterSqlite3(path, readonly)
  const busyTimeoutMs = options.busyTimeoutMs ?? defaultBusyTimeoutMs
  if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0) {
    connection.close()
    throw new RangeError(`busyTimeoutMs must be a whole number of milliseconds, 0 or more; got ${busyTimeoutMs}`)
  }
  connection.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`)
  return connection
}
