import type Database from 'better-sqlite3'
import type { DatasetDefinition, DatasetRow, DatasetTable, DatasetValue } from '@allmenning/core'
import { ensureCatalog, readCatalog, writeCatalogEntry, type CatalogEntry } from './catalog.js'
import { datasetTablePrefix, generationTable, quote, tableGeneration } from './table-names.js'

const sqlTypes = { text: 'TEXT', integer: 'INTEGER', real: 'REAL' } as const
/** Rows written per transaction: large enough that commits cost nothing, small enough that the WAL stays small. */
const rowsPerTransaction = 20_000

interface TableWriter {
  table: DatasetTable
  name: string
  columns: string[]
  insert: Database.Statement
  pending: DatasetValue[][]
  checked: boolean
}

function insertSql(table: DatasetTable, name: string, columns: string[]): string {
  const insert = `INSERT INTO ${name} (${columns.map(quote).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`
  const key = table.key ?? []
  if (key.length === 0) return insert
  const sum = table.sum ?? []
  const kept = table.keep === 'last' ? columns.filter((c) => !key.includes(c) && !sum.includes(c)) : []
  const updates = [
    ...sum.map((c) => `${quote(c)} = coalesce(${quote(c)} + excluded.${quote(c)}, ${quote(c)}, excluded.${quote(c)})`),
    ...kept.map((c) => `${quote(c)} = excluded.${quote(c)}`),
  ]
  if (updates.length === 0) return `${insert} ON CONFLICT DO NOTHING`
  return `${insert} ON CONFLICT (${key.map(quote).join(', ')}) DO UPDATE SET ${updates.join(', ')}`
}

/**
 * Writes one new generation of a dataset beside the one that serves, then switches to it.
 * Tables are created bare and indexed at the end (faster than keeping indexes up to date row
 * by row); a table with a key gets its unique index first, because merging duplicate rows
 * needs it. Nothing a reader sees changes until {@link GenerationWriter.switchTo} commits.
 *
 * @example
 * const writer = createGenerationWriter(db, dataset)
 * writer.add('aksjeposter', row)
 * writer.finish()
 * writer.switchTo({ publishedAt: '2024-12-31', files, malformed: 0 })
 */
export interface GenerationWriter {
  readonly generation: number
  add(table: string, row: DatasetRow): void
  /** Writes what is buffered and builds the indexes. */
  finish(): void
  /** Makes this generation the loaded one and drops the one before, in one transaction. */
  switchTo(entry: Omit<CatalogEntry, 'id' | 'generation' | 'fingerprint' | 'rows' | 'loadedAt'> & { fingerprint: string }): CatalogEntry
  /** Drops everything this generation wrote. */
  abandon(): void
  readonly rows: number
}

export function createGenerationWriter(db: Database.Database, dataset: DatasetDefinition): GenerationWriter {
  ensureCatalog(db)
  const current = readCatalog(db).get(dataset.id)?.generation
  // Milliseconds since the epoch: unique per import and ordered, even across processes.
  const generation = Math.max(Date.now(), (current ?? 0) + 1)
  dropLeftovers(db, dataset.id, current)

  const writers = new Map<string, TableWriter>()
  for (const table of dataset.tables) {
    const name = generationTable(dataset.id, table.name, generation)
    const columns = Object.keys(table.columns)
    db.exec(`CREATE TABLE ${name} (${columns.map((c) => `${quote(c)} ${sqlTypes[table.columns[c]!]}`).join(', ')})`)
    if (table.key?.length) db.exec(`CREATE UNIQUE INDEX ${name}__key ON ${name} (${table.key.map(quote).join(', ')})`)
    writers.set(table.name, { table, name, columns, insert: db.prepare(insertSql(table, name, columns)), pending: [], checked: false })
  }

  let rows = 0
  let buffered = 0
  const flush = db.transaction(() => {
    for (const writer of writers.values()) {
      for (const values of writer.pending) writer.insert.run(values)
      writer.pending = []
    }
  })

  return {
    generation,
    get rows() {
      return rows
    },
    add(tableName, row) {
      const writer = writers.get(tableName)
      if (!writer) throw new TypeError(`Dataset ${dataset.id} has no table "${tableName}"`)
      if (!writer.checked) {
        const unknown = Object.keys(row).filter((column) => !(column in writer.table.columns))
        if (unknown.length > 0) throw new TypeError(`Dataset ${dataset.id}: a row for ${tableName} has columns it does not declare: ${unknown.join(', ')}`)
        writer.checked = true
      }
      writer.pending.push(writer.columns.map((column) => row[column] ?? null))
      rows++
      if (++buffered >= rowsPerTransaction) {
        flush()
        buffered = 0
      }
    },
    finish() {
      flush()
      buffered = 0
      for (const writer of writers.values()) {
        ;(writer.table.indexes ?? []).forEach((columns, i) => {
          db.exec(`CREATE INDEX ${writer.name}__i${i} ON ${writer.name} (${columns.map(quote).join(', ')})`)
        })
        // Statistics let the planner pick the right index where a lookup could use several.
        db.exec(`ANALYZE ${writer.name}`)
      }
    },
    switchTo(entry) {
      const counted = [...writers.values()].reduce(
        (sum, writer) => sum + (db.prepare(`SELECT count(*) AS n FROM ${writer.name}`).get() as { n: number }).n,
        0,
      )
      const done: CatalogEntry = { ...entry, id: dataset.id, generation, rows: counted, loadedAt: new Date().toISOString() }
      db.transaction(() => {
        writeCatalogEntry(db, done)
        dropLeftovers(db, dataset.id, generation)
      }).immediate()
      return done
    },
    abandon() {
      for (const writer of writers.values()) db.exec(`DROP TABLE IF EXISTS ${writer.name}`)
    },
  }
}

/** Drops every table of the dataset that does not belong to generation `keep` (earlier generations, interrupted imports). */
function dropLeftovers(db: Database.Database, datasetId: string, keep: number | undefined): void {
  const prefix = datasetTablePrefix(datasetId)
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND substr(name, 1, ?) = ?")
    .pluck()
    .all(prefix.length, prefix) as string[]
  for (const name of tables) {
    if (tableGeneration(name) !== keep) db.exec(`DROP TABLE ${name}`)
  }
}
