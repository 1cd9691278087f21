import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { once } from 'node:events'
import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { openSqlite } from './sqlite-connection.js'

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number)
const hasBuiltIn = major > 22 || (major === 22 && minor >= 13)

describe('opening a SQLite file', () => {
  it(`uses ${hasBuiltIn ? 'node:sqlite' : 'better-sqlite3'} on Node ${process.versions.node}`, () => {
    const db = openSqlite(':memory:')
    expect(db.binding).toBe(hasBuiltIn ? 'node:sqlite' : 'better-sqlite3')
    db.close()
  })

  it('binds by position, reads rows and first values, and runs transactions that roll back on error', () => {
    const db = openSqlite(':memory:')
    db.exec('CREATE TABLE t (a TEXT, b INTEGER, c REAL)')
    const insert = db.prepare('INSERT INTO t VALUES (?, ?, ?)')
    db.transaction(() => {
      insert.run(['x', 1, 1.5])
      insert.run(['y', null, null])
    })
    expect(db.inTransaction).toBe(false)
    expect(() =>
      db.transaction(() => {
        insert.run(['z', 3, 3])
        throw new Error('stop')
      }, true),
    ).toThrow('stop')
    expect(db.inTransaction).toBe(false)
    expect(db.prepare('SELECT a, b, c FROM t ORDER BY a').all().map((row) => ({ ...row }))).toEqual([
      { a: 'x', b: 1, c: 1.5 },
      { a: 'y', b: null, c: null },
    ])
    expect(db.prepare('SELECT count(*) FROM t WHERE a = ?').value(['x'])).toBe(1)
    expect(db.prepare('SELECT a FROM t WHERE a = ?').get(['none'])).toBeUndefined()
    db.close()
  })

  it('waits for a lock another connection holds, 5 s by default, from its very first statement', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'allmenning-sqlite-'))
    const path = join(dir, 'store.sqlite')
    // Another thread holds the whole file, as the last connection out does while it checkpoints,
    // until it is told to let go.
    const holder = new Worker(
      `const { workerData, parentPort } = require('node:worker_threads')
       const sqlite = process.getBuiltinModule && workerData.builtIn ? process.getBuiltinModule('node:sqlite') : undefined
       const db = sqlite ? new sqlite.DatabaseSync(workerData.path) : new (require(workerData.betterSqlite3))(workerData.path)
       db.exec('CREATE TABLE t (a)')
       db.exec('BEGIN EXCLUSIVE')
       db.exec('INSERT INTO t VALUES (1)')
       parentPort.postMessage('held')
       parentPort.once('message', () => { db.exec('COMMIT'); db.close(); parentPort.postMessage('released') })`,
      { eval: true, workerData: { path, builtIn: hasBuiltIn, betterSqlite3: createRequire(import.meta.url).resolve('better-sqlite3') } },
    )
    try {
      expect(await once(holder, 'message')).toEqual(['held'])
      const impatient = openSqlite(path, { busyTimeoutMs: 0 })
      expect(() => impatient.exec('PRAGMA journal_mode = WAL')).toThrow(/database is locked/)
      impatient.close()

      const db = openSqlite(path)
      expect(db.prepare('PRAGMA busy_timeout').value()).toBe(5000)
      const released = once(holder, 'message')
      holder.postMessage('let go')
      // Blocks this thread until the holder commits, then goes on.
      db.exec('PRAGMA journal_mode = WAL')
      expect(db.prepare('SELECT count(*) FROM t').value()).toBe(1)
      db.close()
      expect(await released).toEqual(['released'])
    } finally {
      await holder.terminate()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('refuses a busy timeout that is not a whole number of milliseconds', () => {
    expect(() => openSqlite(':memory:', { busyTimeoutMs: -1 })).toThrow(/busyTimeoutMs must be a whole number of milliseconds, 0 or more; got -1/)
    expect(openSqlite(':memory:', { busyTimeoutMs: 200 }).prepare('PRAGMA busy_timeout').value()).toBe(200)
  })
})
