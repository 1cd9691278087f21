import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runDatasetStoreContract, type DatasetStoreHarness } from '@allmenning/core/conformance'
import { createSqliteDatasetStore, importDataset, type SqliteDatasetStore } from '@allmenning/datasets'

// The SQLite store keeps the contract every DatasetStore keeps, loading through its own import:
// with the rows written on the importing thread, and on a writer thread of their own.
for (const writerThread of [false, true]) {
  runDatasetStoreContract(
    { describe, it, expect, beforeAll, afterAll },
    (): DatasetStoreHarness => {
      const dir = mkdtempSync(join(tmpdir(), 'allmenning-contract-'))
      const path = join(dir, 'allmenning.sqlite')
      const store = createSqliteDatasetStore({ path })
      const others: SqliteDatasetStore[] = []
      let loads = 0
      return {
        store,
        async load(dataset, rows, version) {
          const file = join(dir, `rows-${++loads}.json`)
          writeFileSync(
            file,
            JSON.stringify(Object.entries(rows).flatMap(([table, list]) => list.map((row) => ({ table, row })))),
          )
          const url = version.files[0]?.url ?? null
          await importDataset({
            path,
            dataset,
            inputs: [{ file: dataset.files[0]!.name, path: file, url }],
            publishedAt: version.publishedAt,
            writerThread,
          })
        },
        openAnother() {
          const another = createSqliteDatasetStore({ path, readonly: true })
          others.push(another)
          return another
        },
        close() {
          for (const another of others) another.close()
          store.close()
          rmSync(dir, { recursive: true, force: true })
        },
      }
    },
    { name: `the SQLite dataset store keeps the DatasetStore contract (writer thread: ${writerThread})` },
  )
}
