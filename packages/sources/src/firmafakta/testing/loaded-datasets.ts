import type { DatasetDefinition } from '@allmenning/core/source'
import {
  createMemoryDatasetStore,
  testOperationContext,
  type DatasetFileInput,
  type MemoryDatasetStore,
  type MemoryFileLoadResult,
} from '@allmenning/core/testing'

/** A dataset store in memory for firmafakta's tests, with files loaded as the command line loads them. */
export interface MemoryDatasets {
  store: MemoryDatasetStore
  /** Loads the files as the next generation; published 2024-12-31 unless told. */
  load(dataset: DatasetDefinition, inputs: DatasetFileInput[], publishedAt?: string): Promise<MemoryFileLoadResult>
  close(): void
}

/**
 * The command a store names for loading a dataset, as the SQLite store of
 * `@allmenning/datasets` names it: `import` for a file ordered from its publisher, `sync`
 * for one downloaded.
 *
 * @example
 * firmafaktaLoadCommand(aksjonaerregisteret) // 'npx allmenning datasets import aksjonaerregisteret <file>'
 */
export function firmafaktaLoadCommand(dataset: DatasetDefinition): string {
  return dataset.origin.kind === 'order'
    ? `npx allmenning datasets import ${dataset.id} <file>`
    : `npx allmenning datasets sync ${dataset.id}`
}

/**
 * A fresh in-memory dataset store for a test of firmafakta's dataset operations: the source's
 * own tests need no SQLite store (it lives in `@allmenning/datasets`, which depends on the
 * sources). Files are given as the in-memory store takes them: bytes for the JSON roles, the
 * records of tabular fixtures (`aksjonaerregisteret2024Records()`).
 *
 * @example
 * const datasets = createMemoryDatasets()
 * await datasets.load(aksjonaerregisteret, [{ file: 'aksjonaerregisteret.csv', records: aksjonaerregisteret2024Records() }])
 * createGateway({ sources: [firmafakta()], datasets: datasets.store })
 */
export function createMemoryDatasets(): MemoryDatasets {
  const store = createMemoryDatasetStore({ loadCommand: firmafaktaLoadCommand })
  return {
    store,
    load: (dataset, inputs, publishedAt = '2024-12-31') => store.loadFiles(dataset, inputs, { publishedAt }),
    close: () => store.clear(),
  }
}

/**
 * The context of a firmafakta operation that reads only datasets, over `store`: Brreg is its
 * upstream by declaration and is never asked (its address refuses any call).
 *
 * @example
 * const datasets = createMemoryDatasets()
 * const ctx = datasetContext('aksjeeiere_for_selskap', datasets.store)
 */
export function datasetContext(operation: string, store: MemoryDatasetStore) {
  return testOperationContext({
    source: 'firmafakta',
    operation,
    upstream: { id: 'brreg', name: 'Brreg', baseUrl: 'http://127.0.0.1:9' },
    datasets: store,
  })
}
