import { existsSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import type { DatasetDefinition, DatasetFile } from '@allmenning/core/source'
import type { LoadedDatasetEntry } from '../store/loaded-datasets-table.js'
import { tablesFingerprint } from '../store/table-names.js'
import { definitionsOption, type DatasetDefinitionsRef } from '../import/dataset-definitions-module.js'
import { importInWorker, workerHeapLimitMb } from '../import/import-in-worker.js'
import type { ImportOptions } from '../import/import-dataset.js'
import { ImportError, type ImportInput, type ImportProgress, type ImportResult } from '../import/import-types.js'
import { discoverFiles } from './discover-files.js'
import { downloadFile, DownloadError, type DownloadResult } from './download-file.js'
import { mirroredUrl } from './dataset-mirror.js'

/** Something `syncDataset` reports on the way. */
export type SyncEvent =
  | { type: 'checking'; url: string }
  | { type: 'downloading'; url: string; received: number; total: number | null }
  | { type: 'downloaded'; url: string; bytes: number }
  | { type: 'unchanged'; url: string }
  | { type: 'importing'; progress: ImportProgress }

/** Options of {@link syncDataset}. */
export interface SyncOptions {
  /** The SQLite file. */
  path: string
  /** Where downloaded files are kept between syncs, so an unchanged file is never fetched again. */
  downloads: string
  dataset: DatasetDefinition
  /** The module the import worker loads the dataset's definition from. */
  definitions?: DatasetDefinitionsRef
  /** @deprecated The earlier name of `definitions`. */
  catalog?: DatasetDefinitionsRef
  /** The loaded generation's entry in the store's catalog, whose validators make the requests conditional. */
  loaded: LoadedDatasetEntry | undefined
  /** Download and import even when the publisher says nothing changed. */
  force?: boolean
  userAgent: string
  onEvent?: (event: SyncEvent) => void
  signal?: AbortSignal
  /**
   * Download the files from this mirror instead of the publisher (see `mirroredUrl`): a folder
   * URL ending in `/` holding the files under their declared names, or the URL of a dataset's
   * only file. The command line takes it from `ALLMENNING_DATASET_<ID>_URL`. Answers still
   * name the publisher's address as their source.
   */
  mirror?: string
  /** See `ImportOptions.limits`. */
  limits?: ImportOptions['limits']
}

/** What a sync did. */
export type SyncResult =
  | { status: 'unchanged'; dataset: string }
  | { status: 'loaded'; dataset: string; result: ImportResult }

interface Planned {
  declared: DatasetFile
  /** The publisher's address: what answers name as their source, and what the store's catalog keys files by. */
  url: string
  /** Where the file is downloaded from: the same address, or a mirror's. */
  from: string
  local: string
}

async function plan(options: SyncOptions): Promise<Planned[]> {
  const planned: Planned[] = []
  const dir = join(options.downloads, options.dataset.id)
  if (options.mirror !== undefined) {
    for (const declared of options.dataset.files) {
      const url = declared.url ?? declared.discover?.page ?? options.dataset.origin.page
      planned.push({
        declared,
        url,
        from: mirroredUrl(options.mirror, options.dataset, declared),
        local: join(dir, declared.name),
      })
    }
    return planned
  }
  for (const declared of options.dataset.files) {
    if (declared.url) {
      planned.push({ declared, url: declared.url, from: declared.url, local: join(dir, declared.name) })
      continue
    }
    if (!declared.discover) continue
    options.onEvent?.({ type: 'checking', url: declared.discover.page })
    let urls = await discoverFiles(declared.discover.page, declared.discover.pattern, options.userAgent, options.signal)
    if (declared.discover.order) urls = declared.discover.order(urls)
    for (const url of urls)
      planned.push({ declared, url, from: url, local: join(dir, basename(new URL(url).pathname)) })
  }
  return planned
}

/** The date the publisher's listing gives for a file (`publishedAt`), as an HTTP date; null when it has none or the listing fails. */
async function listedDate(declared: DatasetFile, signal?: AbortSignal): Promise<string | null> {
  if (!declared.publishedAt) return null
  try {
    const listed = await declared.publishedAt(signal)
    const time = listed ? Date.parse(listed) : NaN
    return Number.isNaN(time) ? null : new Date(time).toUTCString()
  } catch {
    return null
  }
}

/** Whether two HTTP dates name the same second. */
function sameDate(a: string | null | undefined, b: string | null | undefined): boolean {
  return Boolean(a && b) && Date.parse(a!) === Date.parse(b!)
}

function newestDate(dates: Array<string | null>): string | null {
  const times = dates.map((date) => (date ? Date.parse(date) : NaN)).filter((t) => !Number.isNaN(t))
  return times.length > 0 ? new Date(Math.max(...times)).toISOString() : null
}

/**
 * Brings one downloadable dataset up to date: asks for each file with the validators of the
 * loaded version (ETag, Last-Modified), and when every file is unchanged (and the set of
 * discovered files is the same) neither downloads nor imports anything. Otherwise it
 * downloads what changed, reuses the kept copy of what did not, and imports the whole set
 * on a worker thread into a new generation. Any failure leaves the loaded version serving.
 *
 * @example
 * const outcome = await syncDataset({ path, downloads: 'data/downloads', dataset, catalog, loaded: store.loadedDatasets().get(dataset.id), userAgent })
 * outcome.status // 'unchanged' or 'loaded'
 */
export async function syncDataset(options: SyncOptions): Promise<SyncResult> {
  const { dataset } = options
  if (dataset.origin.kind !== 'download') {
    const how =
      dataset.origin.kind === 'order'
        ? dataset.origin.instructions
        : `it is made from ${dataset.origin.from.join(', ')}: deriveDataset makes it`
    throw new ImportError(`Dataset ${dataset.id} is not published for download (${how})`)
  }
  const planned = await plan(options)
  // A version loaded under an older definition of the dataset is not served (the store treats it
  // as not loaded), so its validators must not make the files look unchanged.
  const loaded = options.loaded?.fingerprint === tablesFingerprint(dataset) ? options.loaded : undefined
  const known = new Map((loaded?.files ?? []).filter((f) => f.url).map((f) => [f.url!, f]))
  const sameSet = planned.length === known.size && planned.every((p) => known.has(p.url))
  const results: DownloadResult[] = []
  // Publisher's listing dates, asked for before the download: a file whose download carries no
  // validators (Lovdata's archives: no ETag, no Last-Modified) is unchanged when its listing
  // date is the one the loaded version was listed at, and is then not even requested. A
  // mirror's copy is judged by the mirror's own validators: the listing dates the publisher's
  // copy, which the mirror may not hold yet, and a mirror is often there because the
  // publisher cannot be reached.
  /** Each file's listing date: null when the listing gave none, undefined when it was not asked. */
  const listed: Array<string | null | undefined> = []
  for (const file of planned) {
    const previous = known.get(file.url)
    // A 304 is only useful when the copy it refers to is still here (or nothing needs reading).
    const haveCopy = existsSync(file.local) && previous !== undefined && statSync(file.local).size === previous.bytes
    const conditional = !options.force && previous !== undefined && (haveCopy || sameSet)
    options.onEvent?.({ type: 'checking', url: file.from })
    const date = previous?.etag || file.from !== file.url ? undefined : await listedDate(file.declared, options.signal)
    listed.push(date)
    if (conditional && sameDate(previous.lastModified, date)) {
      options.onEvent?.({ type: 'unchanged', url: file.from })
      results.push({
        url: file.from,
        status: 'unchanged',
        etag: null,
        lastModified: previous.lastModified ?? null,
        bytes: previous.bytes,
      })
      continue
    }
    const result = await downloadFile(file.from, file.local, {
      ...(conditional ? { etag: previous.etag ?? null, lastModified: previous.lastModified ?? null } : {}),
      ...(file.declared.headers ? { headers: file.declared.headers } : {}),
      userAgent: options.userAgent,
      onBytes: (received, total) => options.onEvent?.({ type: 'downloading', url: file.from, received, total }),
      ...(options.signal ? { signal: options.signal } : {}),
    })
    options.onEvent?.(
      result.status === 'unchanged'
        ? { type: 'unchanged', url: file.from }
        : { type: 'downloaded', url: file.from, bytes: result.bytes },
    )
    results.push(result)
  }
  if (sameSet && !options.force && results.every((r) => r.status === 'unchanged'))
    return { status: 'unchanged', dataset: dataset.id }

  // Something changed: every file is needed, so an unchanged one without a kept copy is fetched whole.
  for (let i = 0; i < planned.length; i++) {
    const file = planned[i]!
    if (results[i]!.status === 'unchanged' && !existsSync(file.local)) {
      results[i] = await downloadFile(file.from, file.local, {
        userAgent: options.userAgent,
        ...(file.declared.headers ? { headers: file.declared.headers } : {}),
      })
    }
  }
  const inputs: ImportInput[] = planned.map((file, i) => ({
    file: file.declared.name,
    ...(file.declared.discover ? { label: basename(file.local) } : {}),
    path: file.local,
    url: file.url,
    etag: results[i]!.etag,
    // Without a Last-Modified of its own, the listing's date is what the next sync compares.
    lastModified: results[i]!.lastModified ?? listed[i] ?? null,
  }))
  const result = await importInWorker({
    path: options.path,
    definitions: definitionsOption(options, 'syncDataset'),
    datasetId: dataset.id,
    inputs,
    publishedAt: newestDate(
      await Promise.all(
        planned.map(async (file, i) => {
          // The listing is asked here only for a file it was not asked for above.
          const known = results[i]!.lastModified ?? listed[i]
          if (known !== undefined) return known
          return file.from === file.url ? await listedDate(file.declared, options.signal) : null
        }),
      ),
    ),
    heapLimitMb: await workerHeapLimitMb(dataset),
    ...(options.limits ? { limits: options.limits } : {}),
    onProgress: (progress) => options.onEvent?.({ type: 'importing', progress }),
    ...(options.signal ? { signal: options.signal } : {}),
  })
  return { status: 'loaded', dataset: dataset.id, result }
}

export { DownloadError }
