import { startWorker } from './start-worker.js'
import { datasetFileContent, type DatasetDefinition } from '@allmenning/core/source'
import { definitionsOption, type DatasetDefinitionsRef } from './dataset-definitions-module.js'
import type { ImportOptions } from './import-dataset.js'
import type { ImportWorkerData } from './import-worker.js'
import { ImportError, type ImportInput, type ImportProgress, type ImportResult } from './import-types.js'

/** Options of {@link importInWorker}. */
export interface ImportInWorkerOptions {
  /** The SQLite file. */
  path: string
  /** The module that defines the dataset (the worker imports it). */
  definitions?: DatasetDefinitionsRef
  /** @deprecated The earlier name of `definitions`. */
  catalog?: DatasetDefinitionsRef
  datasetId: string
  inputs: ImportInput[]
  publishedAt: string | null
  onProgress?: (progress: ImportProgress) => void
  signal?: AbortSignal
  /** The worker's heap limit in MiB; see {@link workerHeapLimitMb}. */
  heapLimitMb?: number
  /** See `ImportOptions.writerThread`. */
  writerThread?: boolean
  /** See `ImportOptions.limits`. */
  limits?: ImportOptions['limits']
}

/**
 * How much heap an import worker of `dataset` gets. A streamed file needs little: its live
 * data is one batch of records, and a tight limit makes V8 collect early instead of letting
 * garbage grow, which keeps a million-row import well under 300 MB. A workbook is read whole,
 * so datasets with XLSX files get room for it. Asynchronous, since a file's content may be
 * given as a function that loads it.
 *
 * @example
 * importInWorker({ ...options, heapLimitMb: await workerHeapLimitMb(dataset) })
 */
export async function workerHeapLimitMb(dataset: DatasetDefinition): Promise<number> {
  const contents = await Promise.all(dataset.files.map(datasetFileContent))
  return contents.some((content) => content.format.type === 'xlsx') ? 1024 : 64
}

/**
 * Runs {@link importDataset} on a worker thread, so parsing and writing a file of a million
 * rows never holds up the thread that serves requests. Progress arrives as messages; the
 * promise settles with the result, or rejects with an {@link ImportError} and the previous
 * generation still serving. Aborting `signal` stops the import between batches.
 *
 * @example
 * const result = await importInWorker({
 *   path: 'data/allmenning.sqlite', definitions: { module: '@allmenning/sources', export: 'builtInDatasets' },
 *   datasetId: 'aksjonaerregisteret', inputs: [{ file: 'aksjonaerregisteret.csv', path: './aksjer.csv', url: null }], publishedAt: '2024-12-31',
 *   onProgress: (p) => console.log(p.rows),
 * })
 */
export function importInWorker(options: ImportInWorkerOptions): Promise<ImportResult> {
  const definitions = definitionsOption(options, 'importInWorker')
  const data: ImportWorkerData = {
    definitions,
    datasetId: options.datasetId,
    path: options.path,
    inputs: options.inputs,
    publishedAt: options.publishedAt,
    writerThread: options.writerThread,
    limits: options.limits,
  }
  const heap = options.heapLimitMb ?? 256
  const resourceLimits = {
    maxOldGenerationSizeMb: heap,
    maxYoungGenerationSizeMb: Math.min(16, Math.max(4, Math.round(heap / 8))),
  }
  // A catalog given as TypeScript needs the loader even when this module is built.
  const worker = startWorker(import.meta.url, 'import-worker', {
    workerData: data,
    resourceLimits,
    loader: /\.[mc]?ts$/.test(definitions.module),
  })
  return new Promise<ImportResult>((resolve, reject) => {
    let settled = false
    const settle = (then: () => void) => {
      if (settled) return
      settled = true
      options.signal?.removeEventListener('abort', abort)
      then()
    }
    const abort = () => worker.postMessage({ type: 'abort' })
    options.signal?.addEventListener('abort', abort, { once: true })
    worker.on(
      'message',
      (message: {
        type: string
        progress?: ImportProgress
        result?: ImportResult
        name?: string
        message?: string
      }) => {
        if (message.type === 'progress') options.onProgress?.(message.progress!)
        else if (message.type === 'done') settle(() => resolve(message.result!))
        else if (message.type === 'error') {
          settle(() =>
            reject(message.name === 'ImportError' ? new ImportError(message.message!) : new Error(message.message)),
          )
        }
      },
    )
    worker.on('error', (error) =>
      settle(() =>
        reject(
          (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new ImportError(
                `The import of ${options.datasetId} ran out of its ${heap} MiB of memory. Nothing was changed.`,
              )
            : error,
        ),
      ),
    )
    worker.on('exit', (code) =>
      settle(() =>
        reject(
          new ImportError(`The import worker stopped (exit code ${code}) before it finished. Nothing was changed.`),
        ),
      ),
    )
  })
}
