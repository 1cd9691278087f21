import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openSqlite } from './sqlite-connection.js'
import { holdWriteLock } from '../testing/write-lock-holder.js'

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
    expect(
      db
        .prepare('SELECT a, b, c FROM t ORDER BY a')
        .all()
        .map((row) => ({ ...row })),
    ).toEqual([
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
    // Another thread holds the whole file, as the last connection out does while it checkpoints.
    const holder = await holdWriteLock(path, { exclusive: true })
    try {
      const impatient = openSqlite(path, { busyTimeoutMs: 0 })
      expect(() => impatient.exec('PRAGMA journal_mode = WAL')).toThrow(/database is locked/)
      impatient.close()

      const db = openSqlite(path)
      expect(db.prepare('PRAGMA busy_timeout').value()).toBe(5000)
      // Not awaited: this thread blocks in the next statement until the holder has committed.
      const released = holder.letGo(100)
      db.exec('PRAGMA journal_mode = WAL')
      expect(db.prepare('SELECT count(*) FROM held_by_another_writer').value()).toBe(1)
      db.close()
      await released
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('refuses a busy timeout that is not a whole number of milliseconds', () => {
    expect(() => openSqlite(':memory:', { busyTimeoutMs: -1 })).toThrow(
      /busyTimeoutMs must be a whole number of milliseconds, 0 or more; got -1/,
    )
    expect(openSqlite(':memory:', { busyTimeoutMs: 200 }).prepare('PRAGMA busy_timeout').value()).toBe(200)
  })
})
