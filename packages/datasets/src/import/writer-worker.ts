import { parentPort, workerData } from 'node:worker_threads'
import type { DatasetTable, DatasetValue } from '@allmenning/core/source'
import { createGenerationWriter, type GenerationWriter } from '../store/generation-writer.js'
import { openSqlite, type SqliteConnection } from '../store/sqlite-connection.js'
import { readRowBatch } from './row-batch.js'

/** What the reading thread sends the writer thread when it starts it. */
export interface WriterWorkerData {
  path: string
  dataset: { id: string; tables: DatasetTable[] }
  /** How long a write waits while another connection writes to the file, in milliseconds. */
  lockWaitMs: number
}

/** A request to the writer thread; each is answered in the order it was sent. */
export type WriterRequest =
  | { type: 'rows'; buffer: ArrayBuffer }
  | { type: 'finish' }
  | { type: 'switch'; entry: Parameters<GenerationWriter['switchTo']>[0] }
  | { type: 'abandon' }

// The writer end of `createWriterThread`: it owns its own connection to the store and the new
// generation's tables, writes the batches of rows the reading thread transfers to it and hands
// each buffer back, then builds the indexes, switches, or drops what it wrote, when told.
const data = workerData as WriterWorkerData
const port = parentPort!
const tables = data.dataset.tables.map((table) => table.name)
const widths = data.dataset.tables.map((table) => Object.keys(table.columns).length)

let db: SqliteConnection | undefined
let writer: GenerationWriter | undefined
let failed = false
const close = () => {
  db?.close()
  db = undefined
  port.close()
}

function start(): GenerationWriter {
  db = openSqlite(data.path, { busyTimeoutMs: data.lockWaitMs })
  // Half the page cache importDataset gives a writer on its own thread: this thread's heap
  // comes on top, and 16 MiB built the indexes as fast while keeping the process's peak RSS
  // ~30 MiB lower.
  return createGenerationWriter(db, data.dataset, { cacheKiB: 16_384 })
}

const fail = (error: unknown) => {
  failed = true
  port.postMessage({ type: 'error', name: (error as Error).name, message: (error as Error).message })
}
// Started at once: dropping leftovers and creating the tables overlap the first reads.
try {
  writer = start()
} catch (error) {
  fail(error)
}

port.on('message', (request: WriterRequest) => {
  try {
    if (request.type === 'abandon') {
      writer?.abandon()
      port.postMessage({ type: 'abandoned' })
      close()
      return
    }
    // After a failure only `abandon` does anything: the reading thread is told once.
    if (failed) {
      if (request.type === 'rows') port.postMessage({ type: 'free', buffer: request.buffer }, [request.buffer])
      return
    }
    const current = writer!
    if (request.type === 'rows') {
      readRowBatch(request.buffer, widths, (table: number, values: DatasetValue[]) =>
        current.addValues(tables[table]!, values),
      )
      port.postMessage({ type: 'free', buffer: request.buffer }, [request.buffer])
    } else if (request.type === 'finish') {
      current.finish()
      port.postMessage({ type: 'finished' })
    } else if (request.type === 'switch') {
      const entry = current.switchTo(request.entry)
      port.postMessage({ type: 'switched', entry })
      close()
    }
  } catch (error) {
    fail(error)
  }
})
