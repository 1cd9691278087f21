import { mkdir, stat } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import type { DatasetDefinition, DatasetRowsOut } from '@allmenning/core/source'
import { fileParts, type ByteCounter, type FilePart } from '../read/file-parts.js'
import { readLimits, type ReadLimits } from '../read/read-limits.js'
import { createGenerationWriter, type GenerationWriter } from '../store/generation-writer.js'
import { acquireImportLock, ImportLockedError } from '../store/import-lock.js'
import { refuseImportIntoFollower } from '../store/follow-marker.js'
import { openSqlite } from '../store/sqlite-connection.js'
import { tablesFingerprint } from '../store/table-names.js'
import { rowBatchTables } from './row-batch.js'
import { createWriterThread, type WriterThread } from './writer-thread.js'
import {
  ImportError,
  type ImportInput,
  type ImportProgress,
  type ImportResult,
  type MalformedSample,
} from './import-types.js'

/** Options of {@link importDataset}. */
export interface ImportOptions {
  /** The SQLite file. */
  path: string
  dataset: DatasetDefinition
  inputs: ImportInput[]
  /** The publisher's date for this version, when known. */
  publishedAt: string | null
  onProgress?: (progress: ImportProgress) => void
  signal?: AbortSignal
  /**
   * Writes SQLite on a thread of its own while this one reads and maps the files. Default: for
   * inputs of 16 MiB or more, where it saves more than starting the thread costs.
   */
  writerThread?: boolean
  /**
   * How long a write waits while another connection writes to the same file (another import,
   * building its indexes, holds it for seconds at a time), in milliseconds. Default 10 minutes:
   * imports run off the serving thread, and one import waiting for another beats failing.
   */
  lockWaitMs?: number
  /**
   * How far a file is read before it is refused: the longest record, what a compressed file
   * may unpack to and by what ratio, the members of an archive. See {@link ReadLimits} for the
   * defaults; a file past one stops the import with an error naming the file and the limit.
   */
  limits?: Partial<ReadLimits>
}

const progressEveryMs = 200
const defaultLockWaitMs = 10 * 60_000
const writerThreadFrom = 16 << 20
const sampleLimit = 10
/** After this many records, an import whose records are nearly all malformed stops early. */
const earlyVerdictAfter = 1000
const earlyVerdictShare = 0.9

function isNamed(error: unknown, name: string): error is Error {
  return error instanceof Error && error.name === name
}

/** SQLite's SQLITE_BUSY, from either binding or relayed by the writer thread. */
function isLocked(error: unknown): boolean {
  return error instanceof Error && /database is locked/.test(error.message)
}

/**
 * Imports into one file started on this thread, by the file's path: the next waits for the one
 * before. On one thread a second writer could only wait for the first's lock by blocking the
 * thread the first needs to go on.
 */
const importsOnThisThread = new Map<string, Promise<unknown>>()

/**
 * Loads a dataset's files into a new generation of the store and switches to it. Runs on the
 * calling thread; the gateway and the command line call it through a worker
 * (`importInWorker`) so the serving thread never waits for it. A malformed record is counted
 * and the import goes on; a file that is not what the dataset expects, or mostly malformed,
 * stops it with an {@link ImportError}, and then nothing changes for readers. Imports of
 * different datasets into one file take turns writing: on one thread one after the other,
 * across threads and processes as SQLite's write lock allows (see `lockWaitMs`).
 *
 * @example
 * const result = await importDataset({ path: 'data/allmenning.sqlite', dataset, inputs: [{ file: 'Tildelinger.csv', path: '/tmp/t.csv', url: null }], publishedAt: null })
 * result.rows // 73891
 */
export async function importDataset(options: ImportOptions): Promise<ImportResult> {
  refuseImportIntoFollower(options.path)
  const key = resolve(options.path)
  const before = importsOnThisThread.get(key)
  const run = (async () => {
    await before?.catch(() => {})
    return importNow(options)
  })()
  importsOnThisThread.set(key, run)
  try {
    return await run
  } finally {
    if (importsOnThisThread.get(key) === run) importsOnThisThread.delete(key)
  }
}

async function importNow(options: ImportOptions): Promise<ImportResult> {
  const { dataset, inputs } = options
  const limits = readLimits(options.limits)
  const started = Date.now()
  const declared = new Map(dataset.files.map((file) => [file.name, file]))
  let totalBytes = 0
  for (const input of inputs) {
    if (!declared.has(input.file))
      throw new ImportError(
        `Dataset ${dataset.id} has no file "${input.file}"; it has ${[...declared.keys()].join(', ')}`,
      )
    try {
      totalBytes += (await stat(input.path)).size
    } catch {
      throw new ImportError(`Cannot read ${input.path}: no such file`)
    }
  }

  await mkdir(dirname(options.path), { recursive: true })
  const lockWaitMs = options.lockWaitMs ?? defaultLockWaitMs
  const waitedTooLong = () =>
    new ImportError(
      `The import of ${dataset.id} waited ${lockWaitMs / 1000} s for another writer to let go of ${options.path} ` +
        `(another import into the same file, or a program holding it open for writing). Nothing was changed; run it again once that is done.`,
    )
  const db = openSqlite(options.path, { busyTimeoutMs: lockWaitMs })
  let release = () => {}
  let writer: GenerationWriter | WriterThread
  try {
    db.exec('PRAGMA journal_mode = WAL')
    // One import of a dataset into a file at a time: the lock is taken before the writer drops
    // leftovers of earlier imports, which would otherwise include a running import's tables.
    release = acquireImportLock(db, dataset.id)
    // A row batch names a row's table in one byte: a dataset of more tables writes here.
    const threaded = (options.writerThread ?? totalBytes >= writerThreadFrom) && dataset.tables.length <= rowBatchTables
    // A larger page cache speeds up index builds; it is memory this thread gives back on close.
    writer = threaded
      ? createWriterThread(options.path, dataset, lockWaitMs)
      : createGenerationWriter(db, dataset, { cacheKiB: 32_768 })
  } catch (error) {
    release()
    db.close()
    if (error instanceof ImportLockedError) throw new ImportError(`${error.message} Nothing was changed.`)
    if (isLocked(error)) throw waitedTooLong()
    throw error
  }
  const counter: ByteCounter = { bytes: 0 }
  let records = 0
  let malformed = 0
  const samples: MalformedSample[] = []
  let current = ''
  let lastReport = 0
  const report = (phase: ImportProgress['phase'], force = false) => {
    const now = Date.now()
    if (!options.onProgress || (!force && now - lastReport < progressEveryMs)) return
    lastReport = now
    options.onProgress({
      phase,
      file: current,
      bytes: counter.bytes,
      totalBytes,
      records,
      rows: writer.rows,
      malformed,
      elapsedMs: now - started,
    })
  }
  const malformedShare = dataset.maxMalformedShare ?? 0.5

  const add = (out: DatasetRowsOut) => {
    if (out === null) return
    if (Array.isArray(out)) for (const one of out) writer.add(one.table, one.row)
    else writer.add(out.table, out.row)
  }
  const countMalformed = (file: string, record: number, error: Error) => {
    malformed++
    if (samples.length < sampleLimit) samples.push({ file, record, problem: error.message })
    if (records >= earlyVerdictAfter && malformed / records > earlyVerdictShare) {
      throw new ImportError(
        `${malformed} of the first ${records} records of ${file} are malformed (record ${samples[0]?.record}: ${samples[0]?.problem}); ` +
          `this does not look like ${dataset.title}. Nothing was changed.`,
      )
    }
  }

  async function readPart(part: FilePart, origin: string): Promise<void> {
    current = part.name
    let mapper: ((record: never, number: number) => DatasetRowsOut) | undefined
    let number = 0
    if (part.kind === 'json') mapper = part.content.rows({ file: part.name, origin, header: [] }) as never
    for await (const batch of part.batches as AsyncGenerator<unknown[]>) {
      if (options.signal?.aborted)
        throw new ImportError(`The import of ${dataset.id} was interrupted. Nothing was changed.`)
      for (const record of batch) {
        if (!mapper) {
          // The header: the first record of a tabular file, its cells trimmed of stray spaces.
          const header = (record as string[]).map((cell) => cell.trim())
          mapper = (part.content as { rows: (context: unknown) => (record: never, n: number) => DatasetRowsOut }).rows({
            file: part.name,
            origin,
            header,
          })
          continue
        }
        number++
        records++
        let out: DatasetRowsOut
        try {
          out = mapper(record as never, number)
        } catch (error) {
          if (isNamed(error, 'DatasetFileError')) throw error
          countMalformed(part.name, number, error instanceof Error ? error : new Error(String(error)))
          continue
        }
        add(out)
      }
      if ('sent' in writer) await writer.sent()
      report('reading')
    }
    if (!mapper) throw new ImportError(`${part.name} is empty: it has no header row. Nothing was changed.`)
  }

  try {
    for (const input of inputs) {
      const origin = input.url ?? input.path
      for await (const part of fileParts(declared.get(input.file)!, input.path, counter, limits))
        await readPart(part, origin)
    }
    report('reading', true)
    if (records > 0 && malformed / records > malformedShare) {
      throw new ImportError(
        `${malformed} of ${records} records are malformed (more than ${Math.round(malformedShare * 100)}%; record ${samples[0]?.record} of ${samples[0]?.file}: ${samples[0]?.problem}). ` +
          `This does not look like ${dataset.title}. Nothing was changed.`,
      )
    }
    if (writer.rows === 0)
      throw new ImportError(`The files hold no rows for ${dataset.id} (${records} records read). Nothing was changed.`)
    report('indexing', true)
    await writer.finish()
    report('switching', true)
    const entry = await writer.switchTo({
      fingerprint: tablesFingerprint(dataset),
      publishedAt: options.publishedAt,
      malformed,
      files: await Promise.all(
        inputs.map(async (input) => ({
          name: input.label ?? input.file,
          url: input.url,
          ...(input.url === null ? { path: input.path } : {}),
          etag: input.etag ?? null,
          lastModified: input.lastModified ?? null,
          bytes: (await stat(input.path)).size,
        })),
      ),
    })
    return {
      dataset: dataset.id,
      generation: entry.generation,
      records,
      rows: entry.rows,
      malformed,
      samples,
      publishedAt: entry.publishedAt,
      loadedAt: entry.loadedAt,
      elapsedMs: Date.now() - started,
    }
  } catch (error) {
    await writer.abandon()
    if (error instanceof ImportError) throw error
    if (isNamed(error, 'ReadLimitError'))
      throw new ImportError(`The import of ${dataset.id} stopped: ${error.message}. Nothing was changed.`)
    if (isNamed(error, 'DatasetFileError'))
      throw new ImportError(`${current || 'The file'} ${error.message}. Nothing was changed.`)
    if (error instanceof TypeError) throw error
    if (isLocked(error)) throw waitedTooLong()
    throw new ImportError(
      `The import of ${dataset.id} failed while reading ${current || 'its files'}: ${(error as Error).message}. Nothing was changed.`,
    )
  } finally {
    try {
      release()
    } finally {
      db.close()
    }
  }
}
