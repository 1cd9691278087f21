import {
  defineDataset,
  type DatasetDefinition,
  type DatasetReader,
  type DatasetRow,
  type DatasetRowOutput,
  type JsonArrayContent,
} from '@allmenning/core/source'
import type { DatasetStore } from '@allmenning/core/extension'
import type { ConformanceRunner } from './conformance-runner.js'

/** Rows to load, by table name. */
export type DatasetRowsByTable = Record<string, DatasetRow[]>

/** What a loaded generation is told of where it came from. */
export interface DatasetLoadVersion {
  publishedAt: string | null
  files: Array<{ name: string; url: string | null }>
}

/**
 * A store under test, with the one thing the contract needs beside reading: a way to load a
 * new generation, as the store's own import does.
 */
export interface DatasetStoreHarness {
  store: DatasetStore
  /**
   * Loads `rows` as the next generation of `dataset` and resolves once it is committed. The
   * dataset is one of the contract's; its one file (`rows.json`) is a JSON array of
   * `{ table, row }` records, for a store whose loading reads files.
   */
  load(dataset: DatasetDefinition, rows: DatasetRowsByTable, version: DatasetLoadVersion): Promise<void>
  /** A second store over the same storage, as another process would open it (optional). */
  openAnother?(): DatasetStore
  /** Releases the store and its storage. */
  close(): Promise<void> | void
}

/** Options of {@link runDatasetStoreContract}. */
export interface DatasetStoreContractOptions {
  /** Title of the `describe` block. Default `dataset store contract`. */
  name?: string
}

/** JSON array records, `{ table, row }` each: what the contract datasets' file holds. */
const records: JsonArrayContent = {
  format: { type: 'json-array' },
  rows: () => (element) => element as DatasetRowOutput,
}

function contractDataset(id: string): DatasetDefinition {
  return defineDataset({
    id,
    title: 'Store contract holdings',
    description: 'Holdings and notes for the dataset store contract.',
    publisher: 'Allmenning conformance suite',
    license: 'CC0',
    attribution: 'Test data.',
    origin: { kind: 'order', page: 'https://example.org/store-contract', instructions: 'Made by the contract suite.' },
    changes: 'yearly',
    tables: [
      {
        name: 'holdings',
        columns: { org: 'text', owner: 'text', shares: 'integer', ratio: 'real', place: 'text' },
        indexes: [['org'], ['owner']],
      },
      {
        name: 'notes',
        columns: { title: 'text', body: 'text', kind: 'text' },
        fullText: { columns: ['title', 'body'], weights: [10, 1] },
      },
    ],
    files: [{ name: 'rows.json', content: records }],
  })
}

/** The datasets the contract loads; a harness may look at them, say to map their tables. */
export const datasetStoreContractDatasets = {
  main: contractDataset('store_contract'),
  other: contractDataset('store_contract_other'),
}

const holdings: DatasetRow[] = [
  { org: '111', owner: 'Ann', shares: 5, ratio: 0.5, place: 'Oslo' },
  { org: '111', owner: 'Bob', shares: 7, ratio: 0.25, place: 'Bergen' },
  { org: '222', owner: 'Ann', shares: 1, ratio: null, place: null },
  { org: '223', owner: 'Cid', shares: 9, ratio: 1.5, place: 'Tromsø' },
  { org: '333', owner: 'Åse', shares: 3, ratio: 0.125, place: 'Bodø' },
]

const notes: DatasetRow[] = [
  { title: 'Aksjeloven', body: 'Lov om aksjeselskaper', kind: 'lov' },
  { title: 'Forskrift om kraft', body: 'Regler for kraftnett og aksjeselskaper', kind: 'forskrift' },
  { title: 'Vegtrafikkloven', body: 'Lov om vegtrafikk', kind: 'lov' },
  { title: 'Notat', body: 'Aksjeloven gjelder aksjeselskaper', kind: 'notat' },
]

const firstVersion: DatasetLoadVersion = {
  publishedAt: '2024-12-31',
  files: [{ name: 'rows.json', url: 'https://example.org/rows.json' }],
}
const secondVersion: DatasetLoadVersion = { publishedAt: '2025-12-31', files: [{ name: 'rows.json', url: null }] }

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const byOrgOwner = (a: DatasetRow, b: DatasetRow) => `${a.org} ${a.owner}`.localeCompare(`${b.org} ${b.owner}`)

/**
 * Defines the contract every `DatasetStore` keeps, as one test per promise of the interface:
 * nothing before a load, the version of what was loaded, declarative selects and counts
 * (equality, `null`, `in`, prefix, order, window, columns), full-text search (rank, total,
 * conditions, stored order), a new generation seen without a restart, a definition whose
 * tables changed read as not loaded, lookups during a load answered whole from one
 * generation, and a table or column not declared refused. Call it at the top level of a
 * test file with the runner's functions and a factory of fresh, empty stores.
 *
 * @example
 * import { afterAll, beforeAll, describe, expect, it } from 'vitest'
 * import { runDatasetStoreContract, type DatasetLoadVersion } from '@allmenning/core/conformance'
 * import type { DatasetDefinition, DatasetRow } from '@allmenning/core/source'
 * import type { DatasetStore } from '@allmenning/core/extension'
 *
 * declare function createMyStore(): DatasetStore & {
 *   loadRows(dataset: DatasetDefinition, rows: Record<string, DatasetRow[]>, version: DatasetLoadVersion): Promise<void>
 *   close(): void
 * }
 *
 * runDatasetStoreContract({ describe, it, expect, beforeAll, afterAll }, async () => {
 *   const store = createMyStore()
 *   return { store, load: (dataset, rows, version) => store.loadRows(dataset, rows, version), close: () => store.close() }
 * })
 */
export function runDatasetStoreContract(
  runner: ConformanceRunner,
  createHarness: () => DatasetStoreHarness | Promise<DatasetStoreHarness>,
  options: DatasetStoreContractOptions = {},
): void {
  const { expect } = runner
  const { main, other } = datasetStoreContractDatasets

  /** Runs `body` on a fresh store, closed afterwards whatever happens. */
  const withStore = (body: (harness: DatasetStoreHarness) => Promise<void>) => async () => {
    const harness = await createHarness()
    try {
      await body(harness)
    } finally {
      await harness.close()
    }
  }
  const loaded = async (
    harness: DatasetStoreHarness,
    dataset = main,
    rows: DatasetRowsByTable = { holdings, notes },
    version = firstVersion,
  ) => {
    await harness.load(dataset, rows, version)
    // A store may see a commit only in a later millisecond than its last check (see DatasetStore.reader).
    await pause(2)
    const reader = harness.store.reader(dataset)
    expect(reader, `${dataset.id} reads as loaded after its load`).not.toBeUndefined()
    return reader!
  }

  runner.describe(options.name ?? 'dataset store contract', () => {
    runner.it(
      'reads as not loaded before any load',
      withStore(async ({ store }) => {
        expect(store.reader(main)).toBeUndefined()
        expect(store.reader(other)).toBeUndefined()
      }),
    )

    runner.it(
      'reports the version of the loaded generation',
      withStore(async (harness) => {
        const before = Date.now()
        const reader = await loaded(harness)
        expect(reader.version).toMatchObject({
          id: main.id,
          publishedAt: '2024-12-31',
          rows: holdings.length + notes.length,
          files: firstVersion.files,
        })
        expect(reader.version.loadedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/)
        expect(Date.parse(reader.version.loadedAt)).toBeGreaterThan(before - 1000)
        // Asked again without a load in between: the same generation.
        expect(harness.store.reader(main)!.version).toEqual(reader.version)
        // A dataset not loaded stays not loaded beside one that is.
        expect(harness.store.reader(other)).toBeUndefined()
      }),
    )

    runner.it(
      'selects every declared column by default, and only the columns asked for',
      withStore(async (harness) => {
        const reader = await loaded(harness)
        expect((await reader.select<DatasetRow>('holdings')).sort(byOrgOwner)).toEqual([...holdings].sort(byOrgOwner))
        expect(await reader.select('holdings', { where: { org: '223' }, columns: ['owner', 'place'] })).toEqual([
          { owner: 'Cid', place: 'Tromsø' },
        ])
      }),
    )

    runner.it(
      'keeps values as loaded: text, integers, reals, null and non-ASCII text',
      withStore(async (harness) => {
        const reader = await loaded(harness)
        expect(await reader.select('holdings', { where: { owner: 'Åse' } })).toEqual([
          { org: '333', owner: 'Åse', shares: 3, ratio: 0.125, place: 'Bodø' },
        ])
        expect(await reader.select('holdings', { where: { org: '222' } })).toEqual([
          { org: '222', owner: 'Ann', shares: 1, ratio: null, place: null },
        ])
      }),
    )

    runner.it(
      'filters on conditions joined by AND: equality, null, in (empty too) and prefix',
      withStore(async (harness) => {
        const reader = await loaded(harness)
        const owners = async (where: Parameters<DatasetReader['select']>[1]) =>
          (
            await reader.select<DatasetRow>('holdings', { ...where, orderBy: [{ column: 'org' }, { column: 'owner' }] })
          ).map((r) => `${r.org}/${r.owner}`)
        expect(await owners({ where: { org: '111' } })).toEqual(['111/Ann', '111/Bob'])
        expect(await owners({ where: { org: '111', owner: 'Bob' } })).toEqual(['111/Bob'])
        expect(await owners({ where: { shares: 9 } })).toEqual(['223/Cid'])
        expect(await owners({ where: { place: null } })).toEqual(['222/Ann'])
        expect(await owners({ where: { owner: { in: ['Bob', 'Cid', 'Dan'] } } })).toEqual(['111/Bob', '223/Cid'])
        expect(await owners({ where: { owner: { in: [] } } })).toEqual([])
        expect(await owners({ where: { org: { prefix: '22' } } })).toEqual(['222/Ann', '223/Cid'])
        expect(await owners({ where: { org: { prefix: '2' }, owner: 'Ann' } })).toEqual(['222/Ann'])
        // A prefix is text: '%' and '_' are not wildcards.
        expect(await owners({ where: { org: { prefix: '%' } } })).toEqual([])
        expect(await owners({ where: { org: { prefix: '2_' } } })).toEqual([])
        expect(await owners({ where: { org: 'nothing' } })).toEqual([])
      }),
    )

    runner.it(
      'orders by several columns in either direction, and windows with limit and offset',
      withStore(async (harness) => {
        const reader = await loaded(harness)
        const select = async (query: Parameters<DatasetReader['select']>[1]) =>
          (await reader.select<DatasetRow>('holdings', query)).map((r) => `${r.org}/${r.owner}`)
        expect(await select({ orderBy: [{ column: 'shares', direction: 'desc' }] })).toEqual([
          '223/Cid',
          '111/Bob',
          '111/Ann',
          '333/Åse',
          '222/Ann',
        ])
        expect(
          await select({
            orderBy: [
              { column: 'owner', direction: 'asc' },
              { column: 'org', direction: 'desc' },
            ],
            limit: 3,
          }),
        ).toEqual(['222/Ann', '111/Ann', '111/Bob'])
        expect(await select({ orderBy: [{ column: 'shares' }], limit: 2, offset: 1 })).toEqual(['333/Åse', '111/Ann'])
        expect(await select({ orderBy: [{ column: 'shares' }], offset: 3 })).toEqual(['111/Bob', '223/Cid'])
        expect(await select({ orderBy: [{ column: 'shares' }], limit: 0 })).toEqual([])
        expect(await select({ orderBy: [{ column: 'shares' }], offset: 10 })).toEqual([])
      }),
    )

    runner.it(
      'counts the rows matching the conditions, or every row',
      withStore(async (harness) => {
        const reader = await loaded(harness)
        expect(await reader.count('holdings')).toBe(holdings.length)
        expect(await reader.count('holdings', { owner: 'Ann' })).toBe(2)
        expect(await reader.count('holdings', { org: { prefix: '1' }, shares: { in: [5, 9] } })).toBe(1)
        expect(await reader.count('holdings', { owner: 'Nobody' })).toBe(0)
        expect(await reader.count('notes')).toBe(notes.length)
      }),
    )

    runner.it(
      'searches full text best first, with _rank (lower is better), the total of all matches, and a window',
      withStore(async (harness) => {
        const reader = await loaded(harness)
        const found = await reader.search<DatasetRow & { _rank: number }>('notes', { match: 'aksjeloven' })
        expect(found.total).toBe(2)
        // The title weighs ten times the body: the note titled so comes first.
        expect(found.rows.map((r) => r.title)).toEqual(['Aksjeloven', 'Notat'])
        expect(found.rows[0]).toMatchObject({ title: 'Aksjeloven', body: 'Lov om aksjeselskaper', kind: 'lov' })
        expect(typeof found.rows[0]!._rank).toBe('number')
        expect(found.rows[0]!._rank).toBeLessThan(found.rows[1]!._rank)
        const page = await reader.search<DatasetRow>('notes', {
          match: 'aksjeselskaper',
          limit: 1,
          offset: 1,
          columns: ['title'],
        })
        expect(page.total).toBe(3)
        expect(page.rows).toHaveLength(1)
        expect(Object.keys(page.rows[0]!).sort()).toEqual(['_rank', 'title'])
        const prefixed = await reader.search<DatasetRow>('notes', { match: '"vegtraf"*' })
        expect(prefixed.rows.map((r) => r.title)).toEqual(['Vegtrafikkloven'])
        expect(await reader.search('notes', { match: 'ingenting' })).toEqual({ total: 0, rows: [] })
      }),
    )

    runner.it(
      'searches with conditions besides the match, and in stored order when asked',
      withStore(async (harness) => {
        const reader = await loaded(harness)
        const laws = await reader.search<DatasetRow>('notes', { match: 'lov', where: { kind: 'lov' } })
        expect(laws.total).toBe(2)
        expect(laws.rows.map((r) => r.title).sort()).toEqual(['Aksjeloven', 'Vegtrafikkloven'])
        const stored = await reader.search<DatasetRow & { _rank: number }>('notes', {
          match: 'aksjeselskaper',
          order: 'stored',
        })
        expect(stored.total).toBe(3)
        expect(stored.rows.map((r) => r.title)).toEqual(['Aksjeloven', 'Forskrift om kraft', 'Notat'])
        expect(stored.rows.map((r) => r._rank)).toEqual([0, 0, 0])
      }),
    )

    runner.it(
      'answers a new generation without a restart, with its own version, and an older reader never fails',
      withStore(async (harness) => {
        const first = await loaded(harness)
        const next = [...holdings.slice(0, 2), { org: '444', owner: 'Dan', shares: 2, ratio: 2, place: 'Hamar' }]
        const second = await loaded(harness, main, { holdings: next, notes: [] }, secondVersion)
        expect(second.version).toMatchObject({
          id: main.id,
          publishedAt: '2025-12-31',
          rows: 3,
          files: secondVersion.files,
        })
        // Answers are cached under loadedAt: each generation must name itself differently.
        expect(second.version.loadedAt).not.toBe(first.version.loadedAt)
        expect(await second.count('holdings')).toBe(3)
        expect(await second.select('holdings', { where: { org: '444' } })).toHaveLength(1)
        expect(await second.search('notes', { match: 'aksjeloven' })).toEqual({ total: 0, rows: [] })
        // A reader taken before may answer from its own generation or from the new one, never fail.
        expect([holdings.length, 3]).toContain(await first.count('holdings'))
        expect([holdings.length, 3]).toContain((await first.select('holdings')).length)
      }),
    )

    runner.it(
      'keeps datasets apart: loading one leaves another as it was',
      withStore(async (harness) => {
        await loaded(harness)
        const otherReader = await loaded(harness, other, { holdings: holdings.slice(0, 1), notes: [] }, secondVersion)
        expect(await otherReader.count('holdings')).toBe(1)
        const mainReader = harness.store.reader(main)!
        expect(mainReader.version.publishedAt).toBe('2024-12-31')
        expect(await mainReader.count('holdings')).toBe(holdings.length)
      }),
    )

    runner.it(
      'reads a generation made for other tables (a changed definition) as not loaded',
      withStore(async (harness) => {
        await loaded(harness)
        const table = main.tables[0]!
        const changed = {
          ...main,
          tables: [{ ...table, columns: { ...table.columns, extra: 'text' as const } }, main.tables[1]!],
        }
        expect(harness.store.reader(changed)).toBeUndefined()
        expect(harness.store.reader(main)).not.toBeUndefined()
      }),
    )

    runner.it(
      'answers lookups during a load whole from one generation, and the new one once it is loaded',
      withStore(async (harness) => {
        const reader = await loaded(harness)
        const many = Array.from({ length: 20_000 }, (_, i) => ({
          org: String(100 + (i % 900)),
          owner: `Owner ${i}`,
          shares: i,
          ratio: null,
          place: null,
        }))
        let done = false
        const loading = harness.load(main, { holdings: many, notes }, secondVersion).finally(() => (done = true))
        const seen = new Set<number>()
        do {
          const current = harness.store.reader(main) ?? reader
          seen.add(await current.count('holdings'))
          seen.add((await current.select('holdings', { columns: ['org'] })).length)
          await pause(1)
        } while (!done)
        await loading
        // The first lookup went out while the load had only begun.
        expect(seen).toContain(holdings.length)
        // Never a generation half written: every answer counted the old rows or all the new ones.
        for (const count of seen) expect([holdings.length, many.length]).toContain(count)
        await pause(2)
        expect(await harness.store.reader(main)!.count('holdings')).toBe(many.length)
      }),
    )

    runner.it(
      'sees a generation another store over the same storage loaded',
      withStore(async (harness) => {
        if (!harness.openAnother) return
        await loaded(harness)
        const another = harness.openAnother()
        expect(await another.reader(main)!.count('holdings')).toBe(holdings.length)
        await loaded(harness, main, { holdings: holdings.slice(0, 2), notes }, secondVersion)
        expect(another.reader(main)!.version.publishedAt).toBe('2025-12-31')
        expect(await another.reader(main)!.count('holdings')).toBe(2)
      }),
    )

    runner.it(
      'refuses a table or a column the dataset does not declare',
      withStore(async (harness) => {
        const reader = await loaded(harness)
        await expect(reader.select('nope')).rejects.toThrow(/nope/)
        await expect(reader.count('nope')).rejects.toThrow(/nope/)
        await expect(reader.select('holdings', { where: { 'org; DROP TABLE x': '1' } })).rejects.toThrow(/DROP TABLE x/)
        await expect(reader.select('holdings', { columns: ['secret'] })).rejects.toThrow(/secret/)
        await expect(reader.select('holdings', { orderBy: [{ column: 'secret' }] })).rejects.toThrow(/secret/)
        await expect(reader.search('holdings', { match: 'x' })).rejects.toThrow(/full-text/)
        // Refused, not broken: the next lookup answers.
        expect(await reader.count('holdings')).toBe(holdings.length)
      }),
    )
  })
}
