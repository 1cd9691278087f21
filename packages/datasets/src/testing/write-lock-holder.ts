import { once } from 'node:events'
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

/** Another thread holding a SQLite file's write lock until told to let go. */
export interface WriteLockHolder {
  /**
   * Commits and closes after `afterMs` on the holder's own thread (so this thread may block
   * waiting for the lock meanwhile); resolves once the lock is free.
   */
  letGo(afterMs?: number): Promise<void>
}

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number)
const hasBuiltIn = major > 22 || (major === 22 && minor >= 13)

/**
 * Opens the SQLite file at `path` on a thread of its own, creates a table in it and keeps the
 * transaction open (`BEGIN EXCLUSIVE`, or `BEGIN IMMEDIATE` for a file in WAL mode, where
 * readers go on), as another import or a program writing to the file would. Resolves once
 * the lock is held. The thread opens the file as the store does (node:sqlite, or
 * better-sqlite3 on Node 20), with no busy timeout: it is first.
 *
 * @example
 * const holder = await holdWriteLock('data/allmenning.sqlite', { exclusive: true })
 * const released = holder.letGo(200)
 * await importDataset(options) // waits ~200 ms for the lock
 */
export async function holdWriteLock(path: string, options: { exclusive?: boolean } = {}): Promise<WriteLockHolder> {
  const holder = new Worker(
    `const { workerData, parentPort } = require('node:worker_threads')
     const sqlite = workerData.builtIn ? process.getBuiltinModule('node:sqlite') : undefined
     const db = sqlite ? new sqlite.DatabaseSync(workerData.path) : new (require(workerData.betterSqlite3))(workerData.path, { timeout: 0 })
     db.exec('CREATE TABLE IF NOT EXISTS held_by_another_writer (a)')
     db.exec(workerData.exclusive ? 'BEGIN EXCLUSIVE' : 'BEGIN IMMEDIATE')
     db.exec('INSERT INTO held_by_another_writer VALUES (1)')
     parentPort.postMessage('held')
     parentPort.once('message', (afterMs) => setTimeout(() => { db.exec('COMMIT'); db.close(); parentPort.postMessage('released') }, afterMs))`,
    {
      eval: true,
      workerData: {
        path,
        exclusive: options.exclusive === true,
        builtIn: hasBuiltIn,
        betterSqlite3: createRequire(import.meta.url).resolve('better-sqlite3'),
      },
    },
  )
  const [message] = await once(holder, 'message')
  if (message !== 'held') throw new Error(`the lock holder said ${String(message)}`)
  return {
    async letGo(afterMs = 0) {
      const released = once(holder, 'message')
      holder.postMessage(afterMs)
      await released
      await holder.terminate()
    },
  }
}
