import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { createSqliteDatasetStore, importInWorker } from '@allmenning/datasets'
import { buildLovdataArchive } from '../../../packages/sources/src/lovdata/testing/archive-builder.js'
import { regulationFixtures } from '../../../packages/sources/src/lovdata/testing/fixtures.js'
import { lovdataRegulations } from '@allmenning/sources/lovdata'

// The rules archive through the real import pipeline (a worker thread, the built-in catalog,
// the SQLite store): it needs @allmenning/datasets, which depends on the sources, so it stays
// here, above both. The source's own tests (rules.test.ts beside it) read an in-memory store.

describe('the command line’s import', () => {
  it('loads a rules archive on a worker thread from the built-in definitions, as `allmenning datasets import` does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'allmenning-lovdata-worker-'))
    try {
      const archive = join(dir, 'gjeldende-sentrale-forskrifter.tar.bz2')
      writeFileSync(archive, await buildLovdataArchive(regulationFixtures()))
      const path = join(dir, 'allmenning.sqlite')
      const result = await importInWorker({
        path,
        definitions: {
          module: fileURLToPath(new URL('../../../packages/sources/src/built-in-datasets.ts', import.meta.url)),
          export: 'builtInDatasets',
        },
        datasetId: 'lovdata_forskrifter',
        inputs: [{ file: 'gjeldende-sentrale-forskrifter.tar.bz2', path: archive, url: null }],
        publishedAt: '2026-09-03T02:31:44Z',
      })
      expect(result).toMatchObject({ dataset: 'lovdata_forskrifter', records: 1, malformed: 0 })
      const store = createSqliteDatasetStore({ path })
      const reader = store.reader(lovdataRegulations)!
      expect((await reader.search('documents', { match: '"tek17"' })).rows).toMatchObject([
        { document_id: 'SF/forskrift/2017-06-19-840' },
      ])
      store.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
