import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { defineDataset } from '@allmenning/core/source'
import { openSqlite } from './sqlite-connection.js'
import { createSqliteDatasetStore, importDataset, ImportError } from '@allmenning/datasets'
import { holdings } from '../testing/test-datasets.js'
import { holdWriteLock } from '../testing/write-lock-holder.js'

let dir: string
let db: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'allmenning-store-'))
  db = join(dir, 'allmenning.sqlite')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

function file(name: string, text: string, encoding: BufferEncoding = 'utf8'): string {
  const path = join(dir, name)
  writeFileSync(path, Buffer.from(text, encoding))
  return path
}

// Every case runs with the rows written on the importing thread and on a writer thread of their own.
let writerThread = false
const load = (path: string, publishedAt: string | null = '2024-12-31') =>
  importDataset({
    path: db,
    dataset: holdings,
    inputs: [{ file: 'holdings.csv', path, url: null }],
    publishedAt,
    writerThread,
  })

describe.each([false, true])('the SQLite dataset store (writer thread: %s)', (thread) => {
  beforeEach(() => {
    writerThread = thread
  })

  it('reads nothing before an import, then the loaded generation with its version', async () => {
    const store = createSqliteDatasetStore({ path: db })
    expect(store.reader(holdings)).toBeUndefined()
    const result = await load(
      file('a.csv', 'Org;Owner;Shares;Place\n111;Ann;5;Oslo\n111;Bob;7;Bergen\n222;Ann;1;Oslo\n'),
    )
    expect(result).toMatchObject({ dataset: 'holdings', records: 3, rows: 3, malformed: 0, publishedAt: '2024-12-31' })
    const reader = store.reader(holdings)!
    expect(reader.version).toMatchObject({
      id: 'holdings',
      publishedAt: '2024-12-31',
      rows: 3,
      files: [{ name: 'holdings.csv', url: null }],
    })
    expect(
      await reader.select('holdings', { where: { org: '111' }, orderBy: [{ column: 'shares', direction: 'desc' }] }),
    ).toEqual([
      { org: '111', owner: 'Bob', shares: 7, place: 'Bergen' },
      { org: '111', owner: 'Ann', shares: 5, place: 'Oslo' },
    ])
    expect(await reader.count('holdings', { owner: 'Ann' })).toBe(2)
    expect(await reader.select('holdings', { where: { owner: { in: ['Bob', 'Cid'] } } })).toHaveLength(1)
    expect(await reader.select('holdings', { where: { org: { prefix: '2' } } })).toEqual([
      { org: '222', owner: 'Ann', shares: 1, place: 'Oslo' },
    ])
    expect(
      await reader.select('holdings', { orderBy: [{ column: 'org' }, { column: 'owner' }], limit: 1, offset: 1 }),
    ).toEqual([{ org: '111', owner: 'Bob', shares: 7, place: 'Bergen' }])
    store.close()
  })

  it('sums duplicate rows on the table key', async () => {
    await load(file('a.csv', 'Org;Owner;Shares\n111;Ann;5\n111;Ann;10\n111;Bob;1\n'))
    const store = createSqliteDatasetStore({ path: db })
    expect(await store.reader(holdings)!.select('holdings', { where: { org: '111', owner: 'Ann' } })).toEqual([
      { org: '111', owner: 'Ann', shares: 15, place: null },
    ])
    store.close()
  })

  it('sums every repeated key of a large file, wherever the repeats are, and keeps the first or the last row', async () => {
    // 60,000 distinct keys (the tracking table grows twice), each repeated up to three times
    // at random places later in the file, with a place that differs per repeat.
    const lines = ['Org;Owner;Shares;Place']
    const expected = new Map<string, { shares: number; first: string; last: string }>()
    let seed = 7
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    const add = (org: string, owner: string, shares: number, place: string) => {
      lines.push(`${org};${owner};${shares};${place}`)
      const known = expected.get(`${org};${owner}`)
      if (known) Object.assign(known, { shares: known.shares + shares, last: place })
      else expected.set(`${org};${owner}`, { shares, first: place, last: place })
    }
    const keys: Array<[string, string]> = []
    for (let i = 0; i < 60_000; i++) {
      const key: [string, string] = [String(100 + (i % 900)), `Owner ${Math.floor(i / 900)}`]
      keys.push(key)
      add(key[0], key[1], i, `P${lines.length}`)
      if (random() < 0.1) {
        const [org, owner] = keys[Math.floor(random() * keys.length)]!
        add(org, owner, 1, `P${lines.length}`)
      }
    }
    const path = file('big.csv', lines.join('\n'))
    const result = await load(path)
    expect(result.rows).toBe(60_000)
    const store = createSqliteDatasetStore({ path: db, readonly: true })
    const rows = await store
      .reader(holdings)!
      .select<{ org: string; owner: string; shares: number; place: string }>('holdings')
    expect(rows).toHaveLength(60_000)
    for (const row of rows)
      expect({ shares: row.shares, place: row.place }).toEqual({
        shares: expected.get(`${row.org};${row.owner}`)!.shares,
        place: expected.get(`${row.org};${row.owner}`)!.first,
      })
    const last = defineDataset({ ...holdings, id: 'holdings_last', tables: [{ ...holdings.tables[0]!, keep: 'last' }] })
    await importDataset({
      path: db,
      dataset: last,
      inputs: [{ file: 'holdings.csv', path, url: null }],
      publishedAt: null,
      writerThread,
    })
    const lastRows = await store
      .reader(last)!
      .select<{ org: string; owner: string; shares: number; place: string }>('holdings')
    expect(lastRows).toHaveLength(60_000)
    for (const row of lastRows) expect(row.place).toBe(expected.get(`${row.org};${row.owner}`)!.last)
    store.close()
  })

  it('switches a reading store to a new generation without a restart, and drops the old one', async () => {
    await load(file('a.csv', 'Org;Owner;Shares\n111;Ann;5\n'))
    const store = createSqliteDatasetStore({ path: db, readonly: true })
    const first = store.reader(holdings)!
    expect(await first.count('holdings')).toBe(1)
    await load(file('b.csv', 'Org;Owner;Shares\n111;Ann;5\n222;Bob;6\n'), '2025-12-31')
    const second = store.reader(holdings)!
    expect(second.version.publishedAt).toBe('2025-12-31')
    expect(await second.count('holdings')).toBe(2)
    // A reader taken before the switch answers from the new generation once its tables are gone.
    expect(await first.select('holdings')).toHaveLength(2)
    const tables = openSqlite(db, { readonly: true })
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'ds_%'")
      .all()
    expect(tables).toHaveLength(1)
    store.close()
  })

  it("asks SQLite for another connection's commit at most once a millisecond, and sees it in the next", async () => {
    await load(file('a.csv', 'Org;Owner;Shares\n111;Ann;5\n'), '2024-12-31')
    const store = createSqliteDatasetStore({ path: db, readonly: true })
    const realNow = Date.now()
    const clock = vi.spyOn(Date, 'now').mockReturnValue(realNow)
    try {
      expect(store.reader(holdings)!.version.publishedAt).toBe('2024-12-31')
      await load(file('b.csv', 'Org;Owner;Shares\n222;Bob;6\n'), '2025-12-31')
      // Still the millisecond of the last check: answered from memory, without a statement.
      expect(store.reader(holdings)!.version.publishedAt).toBe('2024-12-31')
      clock.mockReturnValue(realNow + 1)
      expect(store.reader(holdings)!.version.publishedAt).toBe('2025-12-31')
    } finally {
      clock.mockRestore()
      store.close()
    }
  })

  it('counts and reports malformed records and goes on', async () => {
    const result = await load(file('a.csv', 'Org;Owner;Shares\n111;Ann;5\n11x;Bob;6\n222;Cid;seven\n333;Dan;1\n'))
    expect(result).toMatchObject({ records: 4, rows: 2, malformed: 2 })
    expect(result.samples).toEqual([
      { file: 'holdings.csv', record: 2, problem: 'Org "11x" is not 3 digits' },
      { file: 'holdings.csv', record: 3, problem: 'Shares "seven" is not a whole number' },
    ])
  })

  it('stops on a file that is not the dataset, and the loaded generation keeps serving', async () => {
    await load(file('a.csv', 'Org;Owner;Shares\n111;Ann;5\n'))
    await expect(load(file('page.html', '<!DOCTYPE html><html><body>Not found</body></html>\n'))).rejects.toThrow(
      new ImportError('holdings.csv has no Org, Owner and Shares columns. Nothing was changed.'),
    )
    const lines = ['Org;Owner;Shares', ...Array.from({ length: 30 }, (_, i) => `x${i};Ann;1`), '111;Ann;2']
    await expect(load(file('bad.csv', lines.join('\n')))).rejects.toThrow(
      /30 of 31 records are malformed .*This does not look like Test holdings\. Nothing was changed\./,
    )
    await expect(load(file('empty.csv', ''))).rejects.toThrow(/is empty/)
    await expect(load(join(dir, 'missing.csv'))).rejects.toThrow(/Cannot read .*missing\.csv/)
    const store = createSqliteDatasetStore({ path: db, readonly: true })
    expect(await store.reader(holdings)!.select('holdings')).toEqual([
      { org: '111', owner: 'Ann', shares: 5, place: null },
    ])
    const tables = openSqlite(db, { readonly: true })
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'ds_%'")
      .all()
    expect(tables).toHaveLength(1)
    store.close()
  })

  it('loads two datasets into one file at once: the imports take turns writing', async () => {
    const lines = [
      'Org;Owner;Shares',
      ...Array.from({ length: 60_000 }, (_, i) => `${100 + (i % 900)};Owner ${i};${i % 1000}`),
    ]
    const path = file('big.csv', lines.join('\n'))
    const other = defineDataset({ ...holdings, id: 'holdings_other' })
    const results = await Promise.all(
      [holdings, other].map((dataset) =>
        importDataset({
          path: db,
          dataset,
          inputs: [{ file: 'holdings.csv', path, url: null }],
          publishedAt: null,
          writerThread,
        }),
      ),
    )
    expect(results.map((r) => [r.dataset, r.rows])).toEqual([
      ['holdings', 60_000],
      ['holdings_other', 60_000],
    ])
    const store = createSqliteDatasetStore({ path: db, readonly: true })
    expect(await store.reader(holdings)!.count('holdings')).toBe(60_000)
    expect(await store.reader(other)!.count('holdings')).toBe(60_000)
    store.close()
  })

  it('waits while another program writes to the file, and says so when it has waited too long', async () => {
    await load(file('a.csv', 'Org;Owner;Shares\n111;Ann;5\n'))
    const holder = await holdWriteLock(db)
    const second = file('b.csv', 'Org;Owner;Shares\n111;Ann;5\n222;Bob;6\n')
    const inputs = [{ file: 'holdings.csv', path: second, url: null }]
    try {
      await expect(
        importDataset({ path: db, dataset: holdings, inputs, publishedAt: null, writerThread, lockWaitMs: 50 }),
      ).rejects.toThrow(
        new ImportError(
          `The import of holdings waited 0.05 s for another writer to let go of ${db} (another import into the same file, or a program holding it open for writing). ` +
            'Nothing was changed; run it again once that is done.',
        ),
      )
      // The holder lets go after 300 ms on its own thread; this one blocks in the import meanwhile.
      const released = holder.letGo(300)
      const started = Date.now()
      expect(
        await importDataset({ path: db, dataset: holdings, inputs, publishedAt: '2025-12-31', writerThread }),
      ).toMatchObject({ rows: 2, publishedAt: '2025-12-31' })
      expect(Date.now() - started).toBeGreaterThanOrEqual(250)
      await released
    } catch (error) {
      await holder.letGo().catch(() => {})
      throw error
    }
    const store = createSqliteDatasetStore({ path: db, readonly: true })
    expect(await store.reader(holdings)!.count('holdings')).toBe(2)
    store.close()
  })

  it('reads windows-1252 and UTF-8 with a byte-order mark alike', async () => {
    await load(file('a.csv', 'Org;Owner;Shares;Place\r\n111;Åse Ødegård;5;Tromsø\r\n', 'latin1'))
    const store = createSqliteDatasetStore({ path: db, readonly: true })
    expect((await store.reader(holdings)!.select('holdings'))[0]).toMatchObject({
      owner: 'Åse Ødegård',
      place: 'Tromsø',
    })
    await load(file('b.csv', '\ufeffOrg;Owner;Shares;Place\n111;Åse Ødegård;5;Tromsø\n'))
    expect((await store.reader(holdings)!.select('holdings'))[0]).toMatchObject({
      owner: 'Åse Ødegård',
      place: 'Tromsø',
    })
    store.close()
  })

  it('treats a generation made for another table layout as not loaded', async () => {
    await load(file('a.csv', 'Org;Owner;Shares\n111;Ann;5\n'))
    const store = createSqliteDatasetStore({ path: db, readonly: true })
    const changed = {
      ...holdings,
      tables: [{ ...holdings.tables[0]!, columns: { ...holdings.tables[0]!.columns, extra: 'text' as const } }],
    }
    expect(store.reader(changed)).toBeUndefined()
    expect(store.reader(holdings)).toBeDefined()
    store.close()
  })

  it('opens read-only without creating anything when the file is missing', () => {
    const store = createSqliteDatasetStore({ path: join(dir, 'none', 'allmenning.sqlite'), readonly: true })
    expect(store.reader(holdings)).toBeUndefined()
    expect(store.loadedDatasets().size).toBe(0)
    store.close()
  })

  it('rejects a query on a column the table does not declare', async () => {
    await load(file('a.csv', 'Org;Owner;Shares\n111;Ann;5\n'))
    const store = createSqliteDatasetStore({ path: db })
    await expect(store.reader(holdings)!.select('holdings', { where: { 'org; DROP TABLE x': '1' } })).rejects.toThrow(
      /has no column/,
    )
    await expect(store.reader(holdings)!.select('nope')).rejects.toThrow(/has no table "nope"/)
    store.close()
  })
})
