import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createSqliteDatasetStore, importDataset } from '@allmenning/datasets'
import { holdings } from '../testing/test-datasets.js'
import { openSqlite } from './sqlite-connection.js'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'allmenning-counts-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('the counts a dataset reader keeps', () => {
  it('keep a count asked for again and again while ten thousand others come and go (least recently used out first)', async () => {
    const path = join(dir, 'allmenning.sqlite')
    const csv = join(dir, 'holdings.csv')
    writeFileSync(csv, 'Org;Owner;Shares\n111;Ann;5\n')
    await importDataset({
      path,
      dataset: holdings,
      inputs: [{ file: 'holdings.csv', path: csv, url: null }],
      publishedAt: '2024-12-31',
    })
    const store = createSqliteDatasetStore({ path })
    const reader = store.reader(holdings)!
    expect(await reader.count('holdings', { owner: 'Ann' })).toBe(1)

    // A row written behind the store's back: a count still kept answers 1, one counted again 2.
    // Opened with the binding this Node has (node:sqlite on 22 and newer), as the store is.
    const writer = openSqlite(path)
    const table = writer
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'ds_holdings__holdings__g%'`)
      .value() as string
    writer.prepare(`INSERT INTO "${table}" (org, owner, shares) VALUES ('222', 'Ann', 1)`).run()
    writer.close()

    for (let i = 0; i < 10_050; i++) {
      await reader.count('holdings', { owner: `Owner ${i}` })
      if (i % 1000 === 0) expect(await reader.count('holdings', { owner: 'Ann' })).toBe(1)
    }
    expect(await reader.count('holdings', { owner: 'Ann' })).toBe(1)
    store.close()
  })
})
