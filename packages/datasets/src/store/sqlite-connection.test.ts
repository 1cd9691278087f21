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
})
