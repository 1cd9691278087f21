import { existsSync, statSync } from 'node:fs'
import type {
  DatasetDefinition,
  DatasetDerivedOrigin,
  DatasetDeriveProgress,
  DatasetDeriveResult,
} from '@allmenning/core/source'
import type { LoadedDatasetEntry } from '../store/loaded-datasets-table.js'
import { openSqliteDatasetStore } from '../store/sqlite-store.js'
import { tablesFingerprint } from '../store/table-names.js'
import { definitionsOption, type DatasetDefinitionsRef } from '../import/dataset-definitions-module.js'
import { importInWorker, workerHeapLimitMb } from '../import/import-in-worker.js'
import type { ImportOptions } from '../import/import-dataset.js'
import { ImportError, type ImportProgress, type ImportResult } from '../import/import-types.js'
import { datasetLoadCommand } from '../store/load-command.js'

/**
 * The variable that overrides an upstream's base URL, `ALLMENNING_UPSTREAM_<ID>`: the rule of the
 * core's `upstreamEnvironmentVariable` (a test holds them equal), written here because importing
 * `@allmenning/core` whole would add a second to every start of the command line.
 *
 * @example
 * upstreamVariable('kartverket_adresser') // 'ALLMENNING_UPSTREAM_KARTVERKET_ADRESSER'
 */
export function upstreamVariable(id: string): string {
  return `ALLMENNING_UPSTREAM_${id.toUpperCase()}`
}

/** Options of {@link deriveDataset}. */
export interface DeriveOptions {
  /** The SQLite file: the datasets it is made from are read there, and it is loaded there. */
  path: string
  /** The data directory, where the derivation keeps its files across runs. */
  dataDir: string
  /** A dataset whose origin is `derived`. */
  dataset: DatasetDefinition
  /** Every dataset of the catalog, to find those it is made from. */
  datasets: DatasetDefinition[]
  /** The module the import worker loads the dataset's definition from. */
  definitions?: DatasetDefinitionsRef
  /** @deprecated The earlier name of `definitions`. */
  catalog?: DatasetDefinitionsRef
  /** The loaded generation's entry in the store's catalog: when the run added nothing to its files, nothing is loaded. */
  loaded: LoadedDatasetEntry | undefined
  /** Most upstream requests of this run; the derivation's own `budget` by default. */
  budget?: number
  /** Load the files even when the run added nothing to them. */
  force?: boolean
  /** Where `ALLMENNING_UPSTREAM_<ID>` overrides an upstream's base URL. */
  env: Record<string, string | undefined>
  userAgent: string
  signal?: AbortSignal
  onProgress?: (progress: DatasetDeriveProgress) => void
  onImport?: (progress: ImportProgress) => void
  /** See `ImportOptions.limits`. */
  limits?: ImportOptions['limits']
}

/** What a derivation's run and load did. */
export type DeriveOutcome =
  | { status: 'unchanged'; dataset: string; run: DatasetDeriveResult }
  | { status: 'loaded'; dataset: string; run: DatasetDeriveResult; result: ImportResult }

/** The origin of a derived dataset, or an error saying it is not one. */
export function derivedOrigin(dataset: DatasetDefinition): DatasetDerivedOrigin {
  if (dataset.origin.kind !== 'derived')
    throw new ImportError(`Dataset ${dataset.id} is not derived from other datasets`)
  return dataset.origin
}

/**
 * Brings one derived dataset forward (what `allmenning datasets sync` does for one): runs its derivation (bounded by the budget, resumable:
 * it reads the datasets it is made from as loaded in the store, and keeps what it asked in its
 * files in the data directory), then loads those files as a new generation when the run added
 * anything (or `force`). An interrupted run (the signal) loads nothing: what it wrote is kept,
 * and the next run loads it. A run an upstream failed midway is loaded all the same, its
 * `failure` naming the upstream.
 *
 * @example
 * const catalog = { module: '@allmenning/sources', export: 'builtInDatasets' }
 * const datasets = await loadDatasetDefinitions(catalog)
 * const store = createSqliteDatasetStore({ path: 'data/allmenning.sqlite' })
 * const outcome = await deriveDataset({
 *   path: store.path, dataDir: 'data', dataset: datasets.find((d) => d.id === 'mattilsynet_adressepunkter')!, datasets, catalog,
 *   loaded: store.loadedDatasets().get('mattilsynet_adressepunkter'), env: process.env, userAgent: 'my-sync/1.0',
 * })
 * outcome.run.summary // '6 distinct addresses, 0 known from earlier runs; asked Kartverket address API for 6: 5 placed, 1 not found; …'
 */
export async function deriveDataset(options: DeriveOptions): Promise<DeriveOutcome> {
  const { dataset } = options
  const origin = derivedOrigin(dataset)
  const sources = origin.from.map((id) => {
    const found = options.datasets.find((d) => d.id === id)
    if (!found) throw new ImportError(`${dataset.id} is made from ${id}, which the catalog does not define`)
    return found
  })
  const store = openSqliteDatasetStore({ path: options.path, readonly: true })
  let run: DatasetDeriveResult
  try {
    const readers = new Map(
      sources.map((source) => {
        const reader = existsSync(options.path) ? store.reader(source) : undefined
        if (!reader)
          throw new ImportError(
            `${dataset.id} is made from ${source.id}, which is not loaded: load it first with ${datasetLoadCommand(source)}`,
          )
        return [source.id, reader] as const
      }),
    )
    const budget = options.budget ?? origin.budget
    run = await origin.derive({
      reader: (id) => {
        const reader = readers.get(id)
        if (!reader)
          throw new TypeError(`${dataset.id}'s derivation reads ${id}, which its origin's \`from\` does not name`)
        return reader
      },
      directory: options.dataDir,
      budget,
      baseUrl: (upstream) => options.env[upstreamVariable(upstream.id)]?.trim() || upstream.baseUrl,
      userAgent: options.userAgent,
      ...(options.signal ? { signal: options.signal } : {}),
      onProgress: (progress) => options.onProgress?.(progress),
    })
  } finally {
    store.close()
  }
  if (options.signal?.aborted) {
    const reason = options.signal.reason instanceof Error ? options.signal.reason.message : 'interrupted'
    throw new ImportError(
      `stopped (${reason}): what this run asked is kept in ${run.files.map((f) => f.path).join(', ')}, and the next sync loads it and goes on from there`,
    )
  }
  // Added nothing: the files are the ones the loaded version was made from.
  const current = options.loaded?.fingerprint === tablesFingerprint(dataset) ? options.loaded : undefined
  const same = run.files.every((file) => {
    const known = current?.files.find((f) => f.name === file.name)
    return (
      known !== undefined &&
      known.path === file.path &&
      existsSync(file.path) &&
      statSync(file.path).size === known.bytes
    )
  })
  if (same && !options.force) return { status: 'unchanged', dataset: dataset.id, run }
  const result = await importInWorker({
    path: options.path,
    definitions: definitionsOption(options, 'deriveDataset'),
    datasetId: dataset.id,
    inputs: run.files.map((file) => ({ file: file.name, path: file.path, url: null })),
    publishedAt: new Date().toISOString(),
    heapLimitMb: await workerHeapLimitMb(dataset),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.onImport ? { onProgress: options.onImport } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  })
  return { status: 'loaded', dataset: dataset.id, run, result }
}

/**
 * The datasets `sync` brings forward, in the order it must: each derived dataset after those it
 * is made from. Without ids, every downloadable and every derived dataset; with ids, those and
 * the datasets derived from them (syncing the smilefjes file places its new addresses too).
 *
 * @example
 * const datasets = await loadDatasetDefinitions({ module: '@allmenning/sources', export: 'builtInDatasets' })
 * syncOrder(datasets, ['mattilsynet_smilefjes']).map((d) => d.id) // ['mattilsynet_smilefjes', 'mattilsynet_adressepunkter']
 */
export function syncOrder(datasets: DatasetDefinition[], ids?: string[]): DatasetDefinition[] {
  const byId = new Map(datasets.map((d) => [d.id, d]))
  const chosen = new Set(
    ids && ids.length > 0 ? ids : datasets.filter((d) => d.origin.kind !== 'order').map((d) => d.id),
  )
  // The derived datasets of a chosen one join it, however deep.
  for (let grew = true; grew; ) {
    grew = false
    for (const d of datasets) {
      if (d.origin.kind === 'derived' && !chosen.has(d.id) && d.origin.from.some((id) => chosen.has(id))) {
        chosen.add(d.id)
        grew = true
      }
    }
  }
  const ordered: DatasetDefinition[] = []
  const placed = new Set<string>()
  const visit = (id: string, path: string[]) => {
    if (placed.has(id) || !chosen.has(id)) return
    if (path.includes(id)) throw new ImportError(`datasets derived in a circle: ${[...path, id].join(' → ')}`)
    const dataset = byId.get(id)
    if (!dataset) return
    if (dataset.origin.kind === 'derived') for (const from of dataset.origin.from) visit(from, [...path, id])
    placed.add(id)
    ordered.push(dataset)
  }
  for (const id of chosen) visit(id, [])
  return ordered
}
