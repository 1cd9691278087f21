import type { DatasetDefinition } from '@allmenning/core/source'
import { createMemoryDatasetStore, type MemoryDatasetStore, type MemoryFileLoadResult } from '@allmenning/core/testing'
import { ADDRESS_POINTS_FILE, adressepunkter } from '../datasets/adressepunkter.js'
import { smilefjes } from '../datasets/smilefjes.js'
import { addressPointsRecords } from './demo-datasets.js'
import { FIXTURE_LINES, type SmilefjesLine, smilefjesRecords } from './smilefjes-fixtures.js'

// Mattilsynet's datasets loaded into the in-memory dataset store of @allmenning/core/testing,
// through the datasets' own mapping, so the source's tests need no SQLite store (which lives in
// @allmenning/datasets, a package that depends on this one). The files are `;`-separated text,
// which only the real import reads from bytes: they are given as records here, and
// test/sources/mattilsynet/fixture-records.test.ts checks that the bytes give the same rows.

/** A store in memory for mattilsynet's tests, with the datasets loaded as the command line loads them. */
export interface MattilsynetDatasets {
  store: MemoryDatasetStore
  /** Loads the smilefjes file made of `lines` (the fixture's by default) as the next generation. */
  loadSmilefjes(lines?: SmilefjesLine[], publishedAt?: string): Promise<MemoryFileLoadResult>
  /** Loads the placed addresses (the fixture's by default) as the next generation. */
  loadAddressPoints(records?: string[][], publishedAt?: string): Promise<MemoryFileLoadResult>
  close(): void
}

/**
 * The command a store names for loading a dataset, as the SQLite store of
 * `@allmenning/datasets` names it: both are built by `sync` (the placed addresses derived).
 *
 * @example
 * mattilsynetLoadCommand(smilefjes) // 'npx allmenning datasets sync mattilsynet_smilefjes'
 */
export function mattilsynetLoadCommand(dataset: DatasetDefinition): string {
  return dataset.origin.kind === 'order'
    ? `npx allmenning datasets import ${dataset.id} <file>`
    : `npx allmenning datasets sync ${dataset.id}`
}

/**
 * A fresh in-memory store for a test of mattilsynet's operations; nothing loaded until asked.
 * Both files are published 2026-11-27 unless told.
 *
 * @example
 * const datasets = createMattilsynetDatasets()
 * await datasets.loadSmilefjes()
 * await datasets.loadAddressPoints()
 * createGateway({ sources: [mattilsynet()], datasets: datasets.store })
 */
export function createMattilsynetDatasets(): MattilsynetDatasets {
  const store = createMemoryDatasetStore({ loadCommand: mattilsynetLoadCommand })
  return {
    store,
    loadSmilefjes: (lines = FIXTURE_LINES, publishedAt = '2026-11-27') =>
      store.loadFiles(smilefjes, [{ file: 'smilefjes-tilsyn.csv', records: smilefjesRecords(lines) }], {
        publishedAt,
      }),
    loadAddressPoints: (records = addressPointsRecords(), publishedAt = '2026-11-27') =>
      store.loadFiles(adressepunkter, [{ file: ADDRESS_POINTS_FILE, records }], { publishedAt }),
    close: () => store.clear(),
  }
}
