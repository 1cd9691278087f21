import type { SqliteConnection } from './sqlite-connection.js'
import type { DatasetTable, DatasetValue } from '@allmenning/core'
import { quote } from './table-names.js'

// 2^27 bits: 16 MiB whatever the file's size; at a million keys about one in 130 is a false
// alarm, which only costs it a place in the short list checked at the end.
const bits = 2 ** 27

function hash(values: DatasetValue[], positions: number[]): number {
  // FNV-1a over the key's values, each ended by a separator so ("ab","c") and ("a","bc") differ.
  let h = 0x811c9dc5
  for (const position of positions) {
    const text = String(values[position] ?? '\u0001')
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i)
      h = Math.imul(h, 0x01000193)
    }
    h ^= 0
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 5
}

/** Spots rows that may share a key with an earlier row, as they are written. */
export interface DuplicateKeys {
  /** Notes one row's key; a key that may have been seen before is set aside for {@link DuplicateKeys.merge}. */
  note(values: DatasetValue[]): void
  /** Merges every group of rows that really share a key: the kept row gets the sums, the others go. */
  merge(): number
}

/**
 * Finds rows sharing a table's key without an index on the key while loading: a bit per key
 * hash marks keys seen, and only keys whose bit was already set are recorded (in a temporary
 * table, not in memory). At the end those few keys are looked up through the table's index
 * and their groups merged. Checking every insert against a unique index instead made the
 * import several times slower, and an index on the key built only to merge costs as much as
 * another real one.
 *
 * @example
 * const duplicates = trackDuplicateKeys(db, table, 'ds_x__t__g1', columns)
 * duplicates.note(values) // for every row
 * duplicates.merge()      // after the indexes are built
 */
export function trackDuplicateKeys(db: SqliteConnection, table: DatasetTable, name: string, columns: string[]): DuplicateKeys {
  const key = table.key ?? []
  const positions = key.map((column) => columns.indexOf(column))
  const seen = new Uint8Array(bits / 8)
  const suspects = `${name}__suspects`
  db.exec(`CREATE TEMP TABLE ${suspects} (${key.map((_, i) => `k${i}`).join(', ')})`)
  const suspect = db.prepare(`INSERT INTO temp.${suspects} VALUES (${key.map(() => '?').join(', ')})`)
  let count = 0
  return {
    note(values) {
      const h = hash(values, positions)
      const mask = 1 << (h & 7)
      const at = h >>> 3
      if (seen[at]! & mask) {
        suspect.run(positions.map((p) => values[p] ?? null))
        count++
      } else {
        seen[at] = seen[at]! | mask
      }
    },
    merge() {
      const sums = table.sum ?? []
      const k = key.map((_, i) => `k${i}`)
      const joined = (left: string, right: string) => key.map((c, i) => `${left}.${left === 't' ? quote(c) : `k${i}`} IS ${right}.k${i}`).join(' AND ')
      let merged = 0
      if (count > 0) {
        const keep = table.keep === 'last' ? 'max' : 'min'
        db.exec(`CREATE TEMP TABLE keys AS SELECT DISTINCT * FROM temp.${suspects}`)
        db.exec(`CREATE INDEX temp.keys_all ON keys (${k.join(', ')})`)
        // One pass over the table, probing the few suspect keys, finds every row of their groups.
        db.exec(`CREATE TEMP TABLE members AS SELECT t.rowid AS id${key.map((c, i) => `, t.${quote(c)} AS k${i}`).join('')}${sums.map((c, i) => `, t.${quote(c)} AS s${i}`).join('')}
          FROM ${name} AS t CROSS JOIN temp.keys AS s ON ${joined('t', 's')}`)
        db.exec(`CREATE TEMP TABLE merged AS SELECT ${keep}(id) AS keep${sums.map((_, i) => `, sum(s${i}) AS s${i}`).join('')}, ${k.join(', ')}
          FROM temp.members GROUP BY ${k.join(', ')} HAVING count(*) > 1`)
        merged = Number(db.prepare('SELECT count(*) FROM temp.merged').value())
        if (merged > 0) {
          db.exec('CREATE INDEX temp.merged_keep ON merged (keep)')
          if (sums.length > 0) {
            const sets = sums.map((c, i) => `${quote(c)} = (SELECT s${i} FROM temp.merged WHERE merged.keep = ${name}.rowid)`)
            db.exec(`UPDATE ${name} SET ${sets.join(', ')} WHERE rowid IN (SELECT keep FROM temp.merged)`)
          }
          db.exec(`DELETE FROM ${name} WHERE rowid IN (SELECT m.id FROM temp.members AS m JOIN temp.merged AS g ON ${joined('m', 'g')} WHERE m.id <> g.keep)`)
        }
        for (const temp of ['keys', 'members', 'merged']) db.exec(`DROP TABLE temp.${temp}`)
      }
      db.exec(`DROP TABLE temp.${suspects}`)
      return merged
    },
  }
}
