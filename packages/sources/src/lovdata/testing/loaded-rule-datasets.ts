import type { DatasetStore } from '@allmenning/core/extension'
import type { DatasetDefinition } from '@allmenning/core/source'
import { createMemoryDatasetStore, type MemoryDatasetStore, type MemoryFileLoadResult } from '@allmenning/core/testing'
import type { ArchiveFile } from '../archive-reader.js'
import { lovdataLaws, lovdataRegulations } from '../rule-datasets.js'
import { buildLovdataArchive } from './archive-builder.js'
import { amendmentLaw, lawFixtures, radonRegulations, regulationFixtures } from './fixtures.js'

// Lovdata's rule archives loaded into the in-memory dataset store of @allmenning/core/testing,
// through the datasets' own archive reader and mapping, so the source's tests need no SQLite
// store (which lives in @allmenning/datasets, a package that depends on this one).

/** A dataset store with both rule archives loaded, as `allmenning datasets import` loads them. */
export interface LoadedRules {
  store: MemoryDatasetStore
  laws: MemoryFileLoadResult
  regulations: MemoryFileLoadResult
  close(): void
}

/**
 * The command a store names for loading a rule dataset, as the SQLite store of
 * `@allmenning/datasets` names it: both are downloaded, so `sync`.
 *
 * @example
 * ruleLoadCommand(lovdataLaws) // 'npx allmenning datasets sync lovdata_lover'
 */
export function ruleLoadCommand(dataset: DatasetDefinition): string {
  return `npx allmenning datasets sync ${dataset.id}`
}

/** A store with nothing loaded that names the load command, as the SQLite store does. */
export const nothingLoaded: DatasetStore = { reader: () => undefined, loadCommand: ruleLoadCommand }

/**
 * Builds `gjeldende-lover.tar.bz2` (the law fixtures and {@link amendmentLaw}) and
 * `gjeldende-sentrale-forskrifter.tar.bz2` (with {@link radonRegulations}) in the real layout and loads them into a store
 * in memory.
 *
 * @example
 * const rules = await loadRuleDatasets()
 * createGateway({ sources: [lovdata()], datasets: rules.store })
 */
export async function loadRuleDatasets(): Promise<LoadedRules> {
  const store = createMemoryDatasetStore({ loadCommand: ruleLoadCommand })
  const load = async (dataset: DatasetDefinition, file: string, files: ArchiveFile[]) =>
    store.loadFiles(dataset, [{ file, bytes: await buildLovdataArchive(files) }], {
      publishedAt: '2026-11-20T04:00:00Z',
    })
  const laws = await load(lovdataLaws, 'gjeldende-lover.tar.bz2', [...lawFixtures(), amendmentLaw()])
  const regulations = await load(lovdataRegulations, 'gjeldende-sentrale-forskrifter.tar.bz2', [
    ...regulationFixtures(),
    ...radonRegulations(),
  ])
  return { store, laws, regulations, close: () => store.clear() }
}
