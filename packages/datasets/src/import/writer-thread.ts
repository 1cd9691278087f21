import { startWorker } from './start-worker.js'
import type { DatasetDefinition, DatasetRow } from '@allmenning/core/source'
import type { LoadedDatasetEntry } from '../store/loaded-datasets-table.js'
import type { GenerationWriter } from '../store/generation-writer.js'
import { createRowBatch } from './row-batch.js'
import { createRowCheck } from '../store/row-check.js'
import type { WriterRequest, WriterWorkerData } from './writer-worker.js'

/**
 * A generation writer on a thread of its own. Rows are packed into buffers (see
 * {@link createRowBatch}) that are transferred to the writer and handed back once written, a
 * few in flight at most: the thread that reads and maps a file and the one that writes SQLite
 * work side by side, and neither makes an object per row for the other.
 *
 * @example
 * const writer = createWriterThread('data/allmenning.sqlite', dataset, 600_000)
 * writer.add('aksjeposter', row)       // for every row
 * await writer.sent()                  // after every batch of records: waits when the writer is behind
 * await writer.finish()
 * const entry = await writer.switchTo({ fingerprint, publishedAt, files, malformed })
 */
export interface WriterThread {
  add(table: string, row: DatasetRow): void
  /** Hands over the rows packed so far when a buffer is full enough; waits while every buffer is in flight. */
  sent(): Promise<void>
  /** Writes what is left and builds the indexes. */
  finish(): Promise<void>
  switchTo(entry: Parameters<GenerationWriter['switchTo']>[0]): Promise<LoadedDatasetEntry>
  /** Drops everything the writer wrote, and stops it. */
  abandon(): Promise<void>
  /** Rows handed to the writer so far. */
  readonly rows: number
}

/** Buffers at most, the one being filled included: enough that a pause on either side (a collection) does not stall the other. */
const ringSize = 8
const bufferBytes = 1 << 20
/** A buffer is handed over once this share of it is used, so the next batch of records fits. */
const sendAt = 0.4

type Reply =
  | { type: 'free'; buffer: ArrayBuffer }
  | { type: 'finished' }
  | { type: 'switched'; entry: LoadedDatasetEntry }
  | { type: 'abandoned' }
  | { type: 'error'; name: string; message: string }

/** An error the writer thread reported, as an Error of the same name. */
function writerError(name: string, message: string): Error {
  const error = new Error(message)
  error.name = name
  return error
}

/**
 * Starts the writer thread of a new generation of `dataset` in the store file at `path`. The
 * caller holds the dataset's import lock for as long as the writer runs. A write waits up to
 * `lockWaitMs` while another connection writes to the file.
 */
export function createWriterThread(path: string, dataset: DatasetDefinition, lockWaitMs: number): WriterThread {
  const data: WriterWorkerData = { path, dataset: { id: dataset.id, tables: dataset.tables }, lockWaitMs }
  const resourceLimits = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 }
  const worker = startWorker(import.meta.url, 'writer-worker', { workerData: data, resourceLimits })

  const checkRow = createRowCheck(dataset)
  const columns = dataset.tables.map((table) => Object.keys(table.columns))
  const batch = createRowBatch(columns, bufferBytes)
  const free: ArrayBuffer[] = []
  let buffers = 1
  let rows = 0
  let failure: Error | undefined
  let stopped = false
  /** What each request sent waits for, in order: the writer answers in the order it was asked. */
  const waiting: { resolve: (reply: Reply) => void; reject: (error: Error) => void }[] = []
  /** Who waits for a free buffer. */
  let wantBuffer: { resolve: () => void; reject: (error: Error) => void } | undefined

  const fail = (error: Error) => {
    failure ??= error
    for (const one of waiting.splice(0)) one.reject(failure)
    wantBuffer?.reject(failure)
    wantBuffer = undefined
  }
  worker.on('message', (reply: Reply) => {
    if (reply.type === 'error') return fail(writerError(reply.name, reply.message))
    if (reply.type === 'free') {
      free.push(reply.buffer)
      const want = wantBuffer
      wantBuffer = undefined
      want?.resolve()
    }
    waiting.shift()?.resolve(reply)
  })
  worker.on('error', (error) =>
    fail(
      (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? new Error('the writer thread ran out of memory')
        : error,
    ),
  )
  worker.on('exit', (code) => {
    stopped = true
    fail(new Error(`the writer thread stopped (exit code ${code})`))
  })

  const ask = (request: WriterRequest, transfer: ArrayBuffer[] = []): Promise<Reply> => {
    if (failure) return Promise.reject(failure)
    return new Promise<Reply>((resolve, reject) => {
      waiting.push({ resolve, reject })
      worker.postMessage(request, transfer)
    })
  }
  const send = async () => {
    if (batch.rows === 0) return
    while (free.length === 0 && buffers >= ringSize) {
      if (failure) throw failure
      await new Promise<void>((resolve, reject) => (wantBuffer = { resolve, reject }))
    }
    if (failure) throw failure
    const next = free.pop() ?? (buffers++, new ArrayBuffer(bufferBytes))
    const buffer = batch.take(next)
    // Not awaited: the buffer comes back through `free`.
    ask({ type: 'rows', buffer }, [buffer]).catch(() => {})
  }

  return {
    get rows() {
      return rows
    },
    add(tableName, row) {
      batch.add(checkRow(tableName, row), row)
      rows++
    },
    async sent() {
      if (failure) throw failure
      if (batch.fill >= sendAt) await send()
    },
    async finish() {
      await send()
      await ask({ type: 'finish' })
    },
    async switchTo(entry) {
      const reply = await ask({ type: 'switch', entry })
      return (reply as { entry: LoadedDatasetEntry }).entry
    },
    async abandon() {
      if (stopped) return
      // Whatever failed before, the writer is asked to drop its tables; only its stopping ends the wait.
      failure = undefined
      await new Promise<void>((resolve) => {
        worker.once('exit', () => resolve())
        waiting.push({ resolve: () => {}, reject: () => {} })
        worker.postMessage({ type: 'abandon' } satisfies WriterRequest)
      })
    },
  }
}
