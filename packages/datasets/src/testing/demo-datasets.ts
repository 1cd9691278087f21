import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  createSqliteDatasetStore,
  datasetStorePath,
  importDataset,
  type ImportResult,
  type SqliteDatasetStore,
} from '@allmenning/datasets'

/** Every built-in dataset loaded from the sources' demo files, for the offline demo. */
export interface DemoDatasets {
  /** The store to give the gateway: `createGateway({ datasets: demo.store })`. */
  store: SqliteDatasetStore
  /** The data directory the store is in. */
  dir: string
  /** The store's file. */
  path: string
  /** What each import loaded, in the order loaded. */
  loaded: ImportResult[]
  /** How long loading took, in milliseconds, the sources' modules' loading included. */
  elapsedMs: number
  /** Closes the store, and removes the directory when it was a temporary one. */
  close(): Promise<void>
}

/**
 * Loads every built-in dataset (`builtInDatasets` of `@allmenning/sources`) from the small files
 * the sources keep for the demo, in their publishers' formats, into a store, as `allmenning
 * datasets import` loads them (the same import, on this thread), without the network. The
 * store is in `dir` (its `allmenning.sqlite`), or in a temporary directory removed on close.
 * A built-in dataset with no demo files is an error naming it. The eight imports take about a
 * second (1–4 s measured on two cores shared with other work), after the sources' modules load.
 *
 * @example
 * const demo = await loadDemoDatasets()
 * const gateway = createGateway({ sources: builtInSources(), datasets: demo.store })
 * // … on shutdown:
 * await demo.close()
 */
export async function loadDemoDatasets(dir?: string): Promise<DemoDatasets> {
  const started = performance.now()
  // Imported when called: @allmenning/sources is an optional peer, and this kit loads without it.
  const [{ builtInDatasets }, firmafakta, lovdata, mattilsynet, utdanning] = await Promise.all([
    import('@allmenning/sources'),
    import('@allmenning/sources/firmafakta/testing'),
    import('@allmenning/sources/lovdata/testing'),
    import('@allmenning/sources/mattilsynet/testing'),
    import('@allmenning/sources/utdanning/testing'),
  ])
  const loads = [
    ...firmafakta.firmafaktaDemoDatasetFiles(),
    ...lovdata.lovdataDemoDatasetFiles(),
    ...mattilsynet.mattilsynetDemoDatasetFiles(),
    ...utdanning.utdanningDemoDatasetFiles(),
  ]
  const missing = builtInDatasets
    .filter((dataset) => !loads.some((load) => load.dataset.id === dataset.id))
    .map((dataset) => dataset.id)
  if (missing.length > 0)
    throw new Error(
      `The demo has no files for the built-in dataset(s) ${missing.join(', ')}: its source's testing entry must give them`,
    )

  const temporary = dir === undefined
  const root = dir ?? mkdtempSync(join(tmpdir(), 'allmenning-demo-'))
  mkdirSync(root, { recursive: true })
  const path = datasetStorePath(root)
  // The files are only read by the import: once loaded, the store holds their rows.
  const files = mkdtempSync(join(root, 'demo-files-'))
  const loaded: ImportResult[] = []
  try {
    for (const { dataset, files: parts, publishedAt } of loads) {
      const inputs = parts.map(({ file, bytes, name }, i) => {
        const local = join(files, `${dataset.id}-${i}-${name ?? file}`)
        writeFileSync(local, bytes)
        return { file, path: local, url: null, ...(name ? { label: name } : {}) }
      })
      loaded.push(await importDataset({ path, dataset, inputs, publishedAt }))
    }
  } catch (error) {
    if (temporary) rmSync(root, { recursive: true, force: true })
    throw error
  } finally {
    rmSync(files, { recursive: true, force: true })
  }
  const store = createSqliteDatasetStore({ path })
  return {
    store,
    dir: root,
    path,
    loaded,
    elapsedMs: Math.round(performance.now() - started),
    async close() {
      store.close()
      if (temporary) rmSync(root, { recursive: true, force: true })
    },
  }
}
