import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { DatasetDefinition } from '@allmenning/core/source'
import {
  createSqliteDatasetStore,
  importDataset,
  type ImportResult,
  type SqliteDatasetStore,
} from '@allmenning/datasets'

/** A store in a temporary directory, with files loaded into it the way the command line loads them. */
export interface LoadedDatasets {
  store: SqliteDatasetStore
  dir: string
  path: string
  load(
    dataset: DatasetDefinition,
    files: Array<{ file: string; bytes: Buffer; name?: string }>,
    publishedAt?: string,
  ): Promise<ImportResult>
  close(): void
}

/**
 * A fresh store for a test: `load` writes the given bytes to files and imports them (on the
 * test's thread; the worker path has its own tests), `store` reads them as the gateway does.
 *
 * @example
 * const datasets = createLoadedDatasets()
 * await datasets.load(aksjonaerregisteret, [{ file: 'aksjonaerregisteret.csv', bytes: csv }], '2024-12-31')
 * createGateway({ sources: [firmafakta()], datasets: datasets.store })
 */
export function createLoadedDatasets(): LoadedDatasets {
  const dir = mkdtempSync(join(tmpdir(), 'allmenning-datasets-'))
  const path = join(dir, 'allmenning.sqlite')
  const store = createSqliteDatasetStore({ path })
  return {
    store,
    dir,
    path,
    async load(dataset, files, publishedAt = '2024-12-31') {
      const inputs = files.map(({ file, bytes, name }, i) => {
        const local = join(dir, name ?? `${i}-${file}`)
        writeFileSync(local, bytes)
        return { file, path: local, url: null, ...(name ? { label: name } : {}) }
      })
      return importDataset({ path, dataset, inputs, publishedAt })
    },
    close() {
      store.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
