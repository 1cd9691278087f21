import type { SqliteConnection } from './sqlite-connection.js'
import type { DatasetTable, DatasetValue } from '@allmenning/core/source'
import { quote } from './table-names.js'

/** Slots of the first table; it doubles whenever it is more than 60% full. */
const initialSlots = 1 << 16
const maxLoad = 0.6

/** Two 32-bit hashes (FNV-1a and a multiplicative one with another seed) of a row's key, each value ended by a separator. */
function hashKey(values: DatasetValue[], positions: number[], out: Int32Array): void {
  let h1 = 0x811c9dc5
  let h2 = 0x9e3779b9
  for (const position of positions) {
    const value = values[position]
    const text = value === null || value === undefined ? '\u0001' : typeof value === 'string' ? value : String(value)
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i)
      h1 = Math.imul(h1 ^ c, 0x01000193)
      h2 = Math.imul(h2 + c, 0x5bd1e995) ^ (h2 >>> 15)
    }
    h1 = Math.imul(h1 ^ 0xff, 0x01000193)
    h2 = Math.imul(h2 + 0xff, 0x5bd1e995) ^ (h2 >>> 15)
  }
  out[0] = h1
  out[1] = h2
}

/** Spots rows that share a key with an earlier row, as they are written. */
export interface DuplicateKeys {
  /**
   * Notes a row's key before it is written (`values[0]` is the row's sequence number, then its
   * columns). Returns `true` when an earlier row had the same key hash: the row has then been
   * set aside for {@link DuplicateKeys.merge} and must not be written to the table.
   */
  setAside(values: DatasetValue[]): boolean
  /** Merges the set-aside rows into the table: sums added to the kept row, other rows written. */
  merge(): number
}

/**
 * Finds rows sharing a table's key without an index on the key while loading. Each key's
 * 64-bit hash goes into an open-addressing table (typed arrays: 12 bytes a slot, about 24 MiB
 * at a million rows) with the sequence number of the first row that had it; a later row with
 * the same hash is not written to the table but set aside in a temporary table with that
 * number. Real duplicates always share a hash, so at the end the set-aside rows and the first
 * rows they point at hold every group: they are grouped on the real key, and each group's
 * result replaces its first row (or is written anew when a hash collision grouped rows whose
 * keys differ). The table itself only sees one replace per group: no scan, no delete. Checking
 * every insert against a unique index made the import several times slower, and scanning the
 * whole table for suspect keys at the end cost a second per million rows.
 *
 * @example
 * const duplicates = trackDuplicateKeys(db, table, 'ds_x__t__g1', columns)
 * if (!duplicates.setAside(values)) insert.run(values) // for every row
 * duplicates.merge()                                   // before the indexes are built
 */
export function trackDuplicateKeys(
  db: SqliteConnection,
  table: DatasetTable,
  name: string,
  columns: string[],
): DuplicateKeys {
  const key = table.key ?? []
  // Values arrive with the sequence number first, then the columns in order.
  const positions = key.map((column) => columns.indexOf(column) + 1)
  let slots = initialSlots
  let hashes = new Int32Array(slots * 2)
  let firsts = new Uint32Array(slots)
  let used = 0
  const hash = new Int32Array(2)
  const repeats = `${name}__repeats`
  const cols = columns.map(quote).join(', ')
  db.exec(`CREATE TEMP TABLE ${repeats} (first INTEGER, seq INTEGER, ${cols})`)
  const setAside = db.prepare(`INSERT INTO temp.${repeats} VALUES (?, ${['?', ...columns.map(() => '?')].join(', ')})`)
  const aside: DatasetValue[] = [0, ...columns.map(() => null), null]
  let count = 0

  /** The first sequence number with this hash, or 0 after recording `seq` as the first. */
  function place(
    h1: number,
    h2: number,
    seq: number,
    tableHashes: Int32Array,
    tableFirsts: Uint32Array,
    mask: number,
  ): number {
    let slot = h1 & mask
    for (;;) {
      const there = tableFirsts[slot]!
      if (there === 0) {
        tableHashes[slot * 2] = h1
        tableHashes[slot * 2 + 1] = h2
        tableFirsts[slot] = seq
        return 0
      }
      if (tableHashes[slot * 2] === h1 && tableHashes[slot * 2 + 1] === h2) return there
      slot = (slot + 1) & mask
    }
  }

  function grow(): void {
    const next = slots * 2
    const nextHashes = new Int32Array(next * 2)
    const nextFirsts = new Uint32Array(next)
    for (let slot = 0; slot < slots; slot++) {
      const seq = firsts[slot]!
      if (seq !== 0) place(hashes[slot * 2]!, hashes[slot * 2 + 1]!, seq, nextHashes, nextFirsts, next - 1)
    }
    slots = next
    hashes = nextHashes
    firsts = nextFirsts
  }

  return {
    setAside(values) {
      hashKey(values, positions, hash)
      const earlier = place(hash[0]!, hash[1]!, values[0] as number, hashes, firsts, slots - 1)
      if (earlier === 0) {
        if (++used > slots * maxLoad) grow()
        return false
      }
      aside[0] = earlier
      for (let i = 0; i < values.length; i++) aside[i + 1] = values[i]!
      setAside.run(aside)
      count++
      return true
    },
    merge() {
      // The hash table is no longer needed; let it go before SQLite sorts.
      hashes = new Int32Array(0)
      firsts = new Uint32Array(0)
      let merged = 0
      if (count > 0) {
        const sums = new Set(table.sum ?? [])
        const k = key.map(quote).join(', ')
        // Every row of a group: the first rows still in the table, and the rows set aside.
        db.exec(`CREATE TEMP TABLE members AS SELECT rowid AS seq, ${cols} FROM ${name} WHERE rowid IN (SELECT first FROM temp.${repeats})
          UNION ALL SELECT seq, ${cols} FROM temp.${repeats}`)
        db.exec(`CREATE TEMP TABLE groups AS SELECT min(seq) AS target, max(seq) AS last, count(*) AS n${[...sums].map((c, i) => `, sum(${quote(c)}) AS s${i}`).join('')}
          FROM temp.members GROUP BY ${k}`)
        merged = Number(db.prepare('SELECT count(*) FROM temp.groups WHERE n > 1').value())
        const pick = table.keep === 'last' ? 'last' : 'target'
        let s = 0
        const values = columns.map((c) => (sums.has(c) ? `g.s${s++}` : `m.${quote(c)}`)).join(', ')
        // The group's row takes the first row's place (its rowid); a group of rows whose keys
        // only shared a hash with it keeps its own first number, which the table never used.
        db.exec(`INSERT OR REPLACE INTO ${name} (rowid, ${cols}) SELECT g.target, ${values}
          FROM temp.groups AS g CROSS JOIN temp.members AS m ON m.seq = g.${pick}`)
        for (const temp of ['members', 'groups']) db.exec(`DROP TABLE temp.${temp}`)
      }
      db.exec(`DROP TABLE temp.${repeats}`)
      return merged
    },
  }
}
