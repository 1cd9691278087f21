import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DatasetRowError, defineDataset, type DatasetRowsOut, type TabularContent } from '@allmenning/core/source'
import { createSqliteDatasetStore, importDataset, importInWorker, type ImportProgress } from '@allmenning/datasets'
import { openSqlite } from '../store/sqlite-connection.js'
import { holdings } from '../testing/test-datasets.js'

let dir: string
let db: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'allmenning-writer-thread-'))
  db = join(dir, 'allmenning.sqlite')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** Holdings in two tables: people and companies, from one `;` file whose first cell says which. */
const split = defineDataset({
  ...holdings,
  id: 'split',
  tables: [
    {
      name: 'people',
      columns: { org: 'text', owner: 'text', shares: 'integer', place: 'text' },
      key: ['org', 'owner'],
      sum: ['shares'],
      indexes: [['org']],
    },
    { name: 'companies', columns: { org: 'text', owner: 'text', shares: 'real' }, indexes: [['owner']] },
  ],
  files: [
    {
      name: 'holdings.csv',
      content: {
        format: { type: 'delimited', delimiter: ';', quoting: 'none', encodings: ['utf-8'] },
        rows:
          () =>
          (cells: string[]): DatasetRowsOut => {
            const [kind, org, owner, shares, place] = cells
            if (kind === 'P')
              return {
                table: 'people',
                row: { org: org!, owner: owner!, shares: Number(shares), place: place || null },
              }
            if (kind === 'C') return { table: 'companies', row: { org: org!, owner: owner!, shares: Number(shares) } }
            if (kind === 'B')
              return [
                { table: 'people', row: { org: org!, owner: owner!, shares: Number(shares), place: null } },
                { table: 'companies', row: { org: org!, owner: owner!, shares: Number(shares) / 2 } },
              ]
            throw new DatasetRowError(`kind "${kind}" is neither P, C nor B`)
          },
      },
    },
  ],
})

/** 120,000 records (about 4 MB, many read batches): repeats, malformed records, text of many scripts. */
function mixedFile(): string {
  const names = ['Åse Ødegård', 'Łukasz Żółć', 'Ζωή', '漢字 🦊', 'Ola "Nordmann"', '']
  const lines = ['Kind;Org;Owner;Shares;Place']
  for (let i = 0; i < 120_000; i++) {
    const kind = i % 997 === 0 ? 'X' : i % 5 === 0 ? 'C' : i % 7 === 0 ? 'B' : 'P'
    // Every 11th record repeats an earlier key.
    const n = i % 11 === 0 ? Math.floor(i / 2) : i
    lines.push(
      `${kind};${100 + (n % 900)};${names[n % names.length]} ${n};${i % 13 === 0 ? (i * 1.25).toFixed(2) : i};${i % 3 ? 'Tromsø' : ''}`,
    )
  }
  const path = join(dir, 'mixed.csv')
  writeFileSync(path, lines.join('\n'))
  return path
}

const tableRows = (table: string) =>
  openSqlite(db, { readonly: true }).prepare(`SELECT * FROM ${table} ORDER BY rowid`).all()

describe('writing on a thread of its own', () => {
  it('loads the same rows, sums and malformed records as writing on the reading thread', async () => {
    const path = mixedFile()
    const results = []
    const contents = []
    const indexed: number[] = []
    for (const writerThread of [false, true]) {
      const progress: ImportProgress[] = []
      results.push(
        await importDataset({
          path: db,
          dataset: split,
          inputs: [{ file: 'holdings.csv', path, url: null }],
          publishedAt: null,
          writerThread,
          onProgress: (p) => progress.push(p),
        }),
      )
      expect(progress.at(-1)?.phase).toBe('switching')
      indexed.push(progress.find((p) => p.phase === 'indexing')!.rows)
      const store = createSqliteDatasetStore({ path: db, readonly: true })
      const reader = store.reader(split)!
      contents.push({
        people: await reader.select('people', { orderBy: [{ column: 'org' }, { column: 'owner' }] }),
        companies: await reader.select('companies', { orderBy: [{ column: 'owner' }] }),
      })
      store.close()
    }
    const [inThread, threaded] = results
    expect(threaded).toMatchObject({
      records: inThread!.records,
      rows: inThread!.rows,
      malformed: inThread!.malformed,
      samples: inThread!.samples,
    })
    expect(threaded!.malformed).toBe(121)
    // Rows handed to the writer, reported before the indexes are built: repeats not yet merged.
    expect(indexed[1]).toBe(indexed[0])
    expect(indexed[0]).toBeGreaterThan(threaded!.rows)
    expect(contents[1]).toEqual(contents[0])
    expect(contents[0]!.people.length).toBeGreaterThan(50_000)
    // Records 16 and 33 share a key (summed, the first place kept); record 3 stands alone.
    expect(contents[1]!.people).toContainEqual({ org: '116', owner: 'Ola "Nordmann" 16', shares: 49, place: 'Tromsø' })
    expect(contents[1]!.people).toContainEqual({ org: '103', owner: '漢字 🦊 3', shares: 3, place: null })
    // Two imports of over 50,000 rows and a thread loading the TypeScript sources through tsx:
    // seconds on a quiet machine, more than the default 15 s on a loaded one.
  }, 60_000)

  it('stops when aborted, drops what it wrote, leaves the loaded generation serving and releases the lock', async () => {
    const small = join(dir, 'small.csv')
    writeFileSync(small, 'Org;Owner;Shares\n111;Ann;5\n')
    await importDataset({
      path: db,
      dataset: holdings,
      inputs: [{ file: 'holdings.csv', path: small, url: null }],
      publishedAt: null,
    })
    const lines = ['Org;Owner;Shares']
    for (let i = 0; i < 200_000; i++) lines.push(`${100 + (i % 900)};Owner ${i};${i}`)
    const big = join(dir, 'big.csv')
    writeFileSync(big, lines.join('\n'))
    const controller = new AbortController()
    const running = importDataset({
      path: db,
      dataset: holdings,
      inputs: [{ file: 'holdings.csv', path: big, url: null }],
      publishedAt: null,
      writerThread: true,
      signal: controller.signal,
      // The first report comes after the first batch of records: rows are in flight by then.
      onProgress: () => controller.abort(),
    })
    await expect(running).rejects.toThrow(/was interrupted\. Nothing was changed\./)
    const store = createSqliteDatasetStore({ path: db, readonly: true })
    expect(await store.reader(holdings)!.select('holdings')).toEqual([
      { org: '111', owner: 'Ann', shares: 5, place: null },
    ])
    const tables = openSqlite(db, { readonly: true })
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'ds_%'")
      .all()
    expect(tables).toHaveLength(1)
    expect(tableRows('allmenning_import_locks')).toEqual([])
    const again = await importDataset({
      path: db,
      dataset: holdings,
      inputs: [{ file: 'holdings.csv', path: big, url: null }],
      publishedAt: null,
      writerThread: true,
    })
    expect(again.rows).toBe(200_000)
    expect(await store.reader(holdings)!.count('holdings')).toBe(200_000)
    store.close()
  })

  it('keeps a row with a column its table does not declare from being written', async () => {
    const path = join(dir, 'a.csv')
    writeFileSync(path, 'Org;Owner;Shares\n111;Ann;5\n')
    const wrong = defineDataset({
      ...holdings,
      id: 'wrong',
      files: [
        {
          ...holdings.files[0]!,
          content: {
            ...(holdings.files[0]!.content as TabularContent),
            rows: () => () => ({ table: 'holdings', row: { org: '1', nope: 'x' } }),
          },
        },
      ],
    })
    await expect(
      importDataset({
        path: db,
        dataset: wrong,
        inputs: [{ file: 'holdings.csv', path, url: null }],
        publishedAt: null,
        writerThread: true,
      }),
    ).rejects.toThrow(/has columns it does not declare: nope/)
    expect(
      openSqlite(db, { readonly: true })
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'ds_%'")
        .all(),
    ).toEqual([])
  })

  it('runs inside the import worker too (a thread started by a thread)', async () => {
    const lines = ['Org;Owner;Shares']
    for (let i = 0; i < 50_000; i++) lines.push(`${100 + ((i % 40_000) % 900)};Owner ${i % 40_000};1`)
    const path = join(dir, 'holdings.csv')
    writeFileSync(path, lines.join('\n'))
    const result = await importInWorker({
      path: db,
      definitions: { module: fileURLToPath(new URL('../testing/test-datasets.ts', import.meta.url)) },
      datasetId: 'holdings',
      inputs: [{ file: 'holdings.csv', path, url: null }],
      publishedAt: null,
      writerThread: true,
    })
    expect(result).toMatchObject({ records: 50_000, rows: 40_000 })
    const store = createSqliteDatasetStore({ path: db, readonly: true })
    expect(await store.reader(holdings)!.select('holdings', { where: { owner: 'Owner 7' } })).toEqual([
      { org: '107', owner: 'Owner 7', shares: 2, place: null },
    ])
    store.close()
  })
})
