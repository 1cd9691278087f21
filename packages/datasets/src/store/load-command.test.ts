import { defineDataset, type DatasetDefinition } from '@allmenning/core/source'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createSqliteDatasetStore } from '../follow/create-sqlite-dataset-store.js'

const harbours = defineDataset({
  id: 'harbour_dues',
  title: 'Test harbour dues',
  description: 'Dues by harbour.',
  publisher: 'Test Port Authority',
  license: 'NLOD 2.0',
  attribution: 'Contains data from the Test Port Authority.',
  origin: { kind: 'download', page: 'https://example.no/dues' },
  changes: 'monthly',
  tables: [{ name: 'dues', columns: { harbour: 'text', nok: 'real' } }],
  files: [
    {
      name: 'dues.csv',
      url: 'https://example.no/dues.csv',
      content: {
        format: { type: 'delimited', delimiter: ';', quoting: 'none' },
        rows: () => (cells) => ({ table: 'dues', row: { harbour: cells[0] ?? null, nok: Number(cells[1]) } }),
      },
    },
  ],
})
const ordered: DatasetDefinition = defineDataset({
  ...harbours,
  id: 'berth_owners',
  origin: { kind: 'order', page: 'https://example.no/order', instructions: 'Ask by e-mail.' },
})

describe('the SQLite store names how this package loads a dataset', () => {
  it('sync for a dataset the command line downloads, import with the file for one ordered from its publisher', () => {
    const dir = mkdtempSync(join(tmpdir(), 'allmenning-load-command-'))
    try {
      const store = createSqliteDatasetStore({ path: join(dir, 'allmenning.sqlite'), readonly: true })
      expect(store.loadCommand?.(harbours)).toBe('npx allmenning datasets sync harbour_dues')
      expect(store.loadCommand?.(ordered)).toBe('npx allmenning datasets import berth_owners <file>')
      store.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
