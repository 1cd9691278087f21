import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { DatasetDefinition } from '@allmenning/core/source'
import { createSqliteDatasetStore, importDataset, type ImportResult, type SqliteDatasetStore } from '@allmenning/datasets'
import type { ArchiveFile } from '../archive-reader.js'
import { lovdataLaws, lovdataRegulations } from '../rule-datasets.js'
import { buildLovdataArchive } from './archive-builder.js'
import { amendmentLaw, lawFixtures, radonRegulations, regulationFixtures } from './fixtures.js'

// Lovdata's rule archives imported into a dataset store: needs both the source and the store,
// so it lives here, above both packages, rather than in either one's testing files.

/** A dataset store with both rule archives loaded, as `allmenning datasets import` loads them. */
export interface LoadedRules {
  store: SqliteDatasetStore
  laws: ImportResult
  regulations: ImportResult
  close(): void
}

/**
 * Builds `gjeldende-lover.tar.bz2` (the law fixtures and {@link amendmentLaw}) and
 * `gjeldende-sentrale-forskrifter.tar.bz2` (with {@link radonRegulations}) in the real layout and imports them into a store
 * in a temporary directory.
 *
 * @example
 * const rules = await loadRuleDatasets()
 * createGateway({ sources: [lovdata()], datasets: rules.store })
 */
export async function loadRuleDatasets(): Promise<LoadedRules> {
  const dir = mkdtempSync(join(tmpdir(), 'allmenning-lovdata-'))
  const path = join(dir, 'allmenning.sqlite')
  const load = async (dataset: DatasetDefinition, file: string, files: ArchiveFile[]) => {
    const local = join(dir, file)
    writeFileSync(local, await buildLovdataArchive(files))
    return importDataset({ path, dataset, inputs: [{ file, path: local, url: null }], publishedAt: '2026-11-20T04:00:00Z' })
  }
  const laws = await load(lovdataLaws, 'gjeldende-lover.tar.bz2', [...lawFixtures(), amendmentLaw()])
  const regulations = await load(lovdataRegulations, 'gjeldende-sentrale-forskrifter.tar.bz2', [...regulationFixtures(), ...radonRegulations()])
  const store = createSqliteDatasetStore({ path })
  return {
    store,
    laws,
    regulations,
    close() {
      store.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
