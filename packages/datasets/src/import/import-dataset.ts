import { mkdir, stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { DatasetDefinition, DatasetRowsOut } from '@allmenning/core'
import { fileParts, type ByteCounter, type FilePart } from '../read/file-parts.js'
import { createGenerationWriter, type GenerationWriter } from '../store/generation-writer.js'
import { acquireImportLock, ImportLockedError } from '../store/import-lock.js'
import { openSqlite } from '../store/sqlite-connection.js'
import { tablesFingerprint } from '../store/table-names.js'
import { createWriterThread, type WriterThread } from './writer-thread.js'
import { ImportError, type ImportInput, type ImportProgress, type ImportResult, type MalformedSample } from './import-types.js'

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
}

const progressEveryMs = 200
const writerThreadFrom = 16 << 20
const sampleLimit = 10
/** After this many records, an import whose records are nearly all malformed stops early. */
const earlyVerdictAfter = 1000
const earlyVerdictShare = 0.9

function isNamed(error: unknown, name: string): error is Error {
  return error instanceof Error && error.name === name
}

/**
 * Loads a dataset's files into a new generation of the store and switches to it. Runs on the
 * calling thread; the gateway and the command line call it through a worker
 * (`importInWorker`) so the serving thread never waits for it. A malformed record is counted
 * and the import goes on; a file that is not what the dataset expects, or mostly malformed,
 * stops it with an {@link ImportError}, and then nothing changes for readers.
 *
 * @example
 * const result = await importDataset({ path: 'data/allmenning.sqlite', dataset, inputs: [{ file: 'Tildelinger.csv', path: '/tmp/t.csv', url: null }], publishedAt: null })
 * result.rows // 73891
 */
export async function importDataset(options: ImportOptions): Promise<ImportResult> {
  const { dataset, inputs } = options
  const started = Date.now()
  const declared = new Map(dataset.files.map((file) => [file.name, file]))
  let totalBytes = 0
  for (const input of inputs) {
    if (!declared.has(input.file)) throw new ImportError(`Dataset ${dataset.id} has no file "${input.file}"; it has ${[...declared.keys()].join(', ')}`)
    try {
      totalBytes += (await stat(input.path)).size
    } catch {
      throw new ImportError(`Cannot read ${input.path}: no such file`)
    }
  }

  await mkdir(dirname(options.path), { recursive: true })
  const db = openSqlite(options.path)
  let release: () => void
  let writer: GenerationWriter | WriterThread
  try {
    db.exec('PRAGMA journal_mode = WAL')
    db.exec('PRAGMA synchronous = NORMAL')
    // A larger page cache speeds up index builds; it is memory this thread gives back on close.
    db.exec('PRAGMA cache_size = -32768')
    // One import of a dataset into a file at a time: the lock is taken before the writer drops
    // leftovers of earlier imports, which would otherwise include a running import's tables.
    release = acquireImportLock(db, dataset.id)
  } catch (error) {
    db.close()
    if (error instanceof ImportLockedError) throw new ImportError(`${error.message} Nothing was changed.`)
    throw error
  }
  try {
    // A row batch names a row's table in one byte: a dataset of more tables writes here.
    const threaded = (options.writerThread ?? totalBytes >= writerThreadFrom) && dataset.tables.length <= 256
    writer = threaded ? createWriterThread(options.path, dataset) : createGenerationWriter(db, dataset)
  } catch (error) {
    release()
    db.close()
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
    options.onProgress({ phase, file: current, bytes: counter.bytes, totalBytes, records, rows: writer.rows, malformed, elapsedMs: now - started })
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
      if (options.signal?.aborted) throw new ImportError(`The import of ${dataset.id} was interrupted. Nothing was changed.`)
      for (const record of batch) {
        if (!mapper) {
          // The header: the first record of a tabular file, its cells trimmed of stray spaces.
          const header = (record as string[]).map((cell) => cell.trim())
          mapper = (part.content as { rows: (context: unknown) => (record: never, n: number) => DatasetRowsOut }).rows({ file: part.name, origin, header })
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
      for await (const part of fileParts(declared.get(input.file)!, input.path, counter)) await readPart(part, origin)
    }
    report('reading', true)
    if (records > 0 && malformed / records > malformedShare) {
      throw new ImportError(
        `${malformed} of ${records} records are malformed (more than ${Math.round(malformedShare * 100)}%; record ${samples[0]?.record} of ${samples[0]?.file}: ${samples[0]?.problem}). ` +
          `This does not look like ${dataset.title}. Nothing was changed.`,
      )
    }
    if (writer.rows === 0) throw new ImportError(`The files hold no rows for ${dataset.id} (${records} records read). Nothing was changed.`)
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
    if (isNamed(error, 'DatasetFileError')) throw new ImportError(`${current || 'The file'} ${error.message}. Nothing was changed.`)
    if (error instanceof TypeError) throw error
    throw new ImportError(`The import of ${dataset.id} failed while reading ${current || 'its files'}: ${(error as Error).message}. Nothing was changed.`)
  } finally {
    try {
      release()
    } finally {
      db.close()
    }
  }
}
