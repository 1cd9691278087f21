import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createSqliteDatasetStore, importInWorker, ImportError, type ImportProgress } from '@allmenning/datasets'
import { holdings } from '../testing/test-datasets.js'

const definitions = { module: fileURLToPath(new URL('../testing/test-datasets.ts', import.meta.url)) }
let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'allmenning-worker-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

function rowsFile(count: number): string {
  const lines = ['Org;Owner;Shares']
  for (let i = 0; i < count; i++) lines.push(`${100 + (i % 900)};Owner ${i};${i}`)
  const path = join(dir, 'holdings.csv')
  writeFileSync(path, lines.join('\n'))
  return path
}

describe('an import on a worker thread', () => {
  it('loads the file, reports progress, and the serving thread reads the new generation', async () => {
    const path = join(dir, 'allmenning.sqlite')
    const store = createSqliteDatasetStore({ path })
    const progress: ImportProgress[] = []
    const result = await importInWorker({
      path,
      definitions,
      datasetId: 'holdings',
      inputs: [{ file: 'holdings.csv', path: rowsFile(50_000), url: null }],
      publishedAt: '2024-12-31',
      onProgress: (p) => progress.push(p),
    })
    expect(result).toMatchObject({ dataset: 'holdings', records: 50_000, rows: 50_000, malformed: 0 })
    expect(progress.map((p) => p.phase)).toContain('switching')
    expect(progress.at(-1)).toMatchObject({ rows: 50_000, records: 50_000 })
    expect(await store.reader(holdings)!.count('holdings', { org: '100' })).toBe(56)
    store.close()
  })

  it('rejects with the import error, and with a clear one for a dataset the module lacks', async () => {
    const path = join(dir, 'allmenning.sqlite')
    const bad = join(dir, 'bad.csv')
    writeFileSync(bad, 'Name;Value\nx;1\n')
    await expect(
      importInWorker({
        path,
        definitions,
        datasetId: 'holdings',
        inputs: [{ file: 'holdings.csv', path: bad, url: null }],
        publishedAt: null,
      }),
    ).rejects.toThrow(new ImportError('holdings.csv has no Org, Owner and Shares columns. Nothing was changed.'))
    await expect(
      importInWorker({ path, definitions, datasetId: 'nope', inputs: [], publishedAt: null }),
    ).rejects.toThrow(/defines no dataset "nope"/)
  })

  it('stops when aborted and leaves nothing loaded', async () => {
    const path = join(dir, 'allmenning.sqlite')
    const controller = new AbortController()
    const running = importInWorker({
      path,
      definitions,
      datasetId: 'holdings',
      inputs: [{ file: 'holdings.csv', path: rowsFile(400_000), url: null }],
      publishedAt: null,
      signal: controller.signal,
      onProgress: () => controller.abort(),
    })
    await expect(running).rejects.toThrow(/was interrupted\. Nothing was changed\./)
    const store = createSqliteDatasetStore({ path, readonly: true })
    expect(store.reader(holdings)).toBeUndefined()
    store.close()
  })
})
