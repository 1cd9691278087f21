import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  defineDataset,
  type DatasetQuery,
  type DatasetReader,
  type DatasetRow,
  type DatasetRowOutput,
  type DatasetSearch,
  type JsonArrayContent,
} from '@allmenning/core/source'
import { createMemoryDatasetStore } from '@allmenning/core/testing'
import { createSqliteDatasetStore, importDataset, type SqliteDatasetStore } from '@allmenning/datasets'

// The in-memory store of @allmenning/core/testing stands in for this store in sources' tests,
// so it must answer as this one does beyond the contract's cases: the same rows loaded into
// both, the same lookups asked of both, the answers compared (search ranks included).

const records: JsonArrayContent = {
  format: { type: 'json-array' },
  rows: () => (element) => element as DatasetRowOutput,
}

const dataset = defineDataset({
  id: 'parity',
  title: 'Parity rows',
  description: 'Rows loaded into both stores.',
  publisher: 'Test',
  license: 'CC0',
  attribution: 'Test data.',
  origin: { kind: 'order', page: 'https://example.test/', instructions: 'Made by the test.' },
  changes: 'yearly',
  files: [{ name: 'rows.json', content: records }],
  tables: [
    {
      name: 'holdings',
      columns: { org: 'text', owner: 'text', shares: 'integer', ratio: 'real', code: 'text' },
      key: ['org', 'owner'],
      sum: ['shares'],
      indexes: [['org'], ['shares']],
    },
    {
      name: 'texts',
      columns: { doc: 'text', title: 'text', short: 'text', body: 'text', year: 'integer' },
      fullText: { columns: ['title', 'short', 'body'], weights: [10, 5, 1] },
    },
  ],
})

const holdings: DatasetRow[] = [
  { org: '111', owner: 'Ann', shares: 5, ratio: 0.5, code: 'A1' },
  { org: '111', owner: 'Ann', shares: 7, ratio: 0.25, code: 'A2' },
  { org: '111', owner: 'Bob', shares: null, ratio: null, code: null },
  { org: '222', owner: 'Åse', shares: 12, ratio: 1.5, code: '10' },
  { org: '2220', owner: 'Øyvind', shares: 3, ratio: 2, code: '9' },
  { org: '3', owner: 'ann', shares: 100, ratio: -1, code: 'b' },
  { org: '30', owner: 'Zed', shares: 0, ratio: 0, code: 'B' },
  { org: '%1', owner: 'Pct', shares: 1, ratio: 1, code: '' },
  // Numbers in text columns and numeric text in number columns: SQLite's column affinity.
  { org: 4, owner: 'Num', shares: ' 42 ', ratio: '1e2', code: 0.1 },
  { org: 4.5, owner: 'Num', shares: '12abc', ratio: '', code: 1e20 },
]

const texts: DatasetRow[] = [
  {
    doc: 'd1',
    title: 'Lov om aksjeselskaper (aksjeloven)',
    short: 'Aksjeloven – asl',
    body: 'Kapittel 1. Innledende bestemmelser. § 1-1 Virkeområde. Loven gjelder aksjeselskaper.',
    year: 1997,
  },
  {
    doc: 'd2',
    title: 'Lov om straff (straffeloven)',
    short: 'Straffeloven – strl',
    body: 'Straffelovens § 5a gjelder på Ærø og i Norge. Aksjeselskaper kan straffes.',
    year: 2005,
  },
  {
    doc: 'd3',
    title: 'Forskrift om radon',
    short: 'Radonforskriften',
    body: 'Radonsperre og radon i bolig. § 3-1 Krav. § 3-2 Måling av radon.',
    year: 2010,
  },
  {
    doc: 'd4',
    title: 'Lov om endring i aksjeloven',
    short: null,
    body: 'Endringer i lov om aksjeselskaper og allmennaksjeselskaper.',
    year: 2020,
  },
  {
    doc: 'd5',
    title: 'Vegtrafikkloven',
    short: 'vtrl',
    body: 'Lov om vegtrafikk. Kjøretøy på veg. Vegtrafikk vegtrafikk.',
    year: 1965,
  },
  {
    doc: 'd6',
    title: 'Notat om lov',
    short: 'Notat',
    body: 'Lov lov lov om aksjeloven og straffeloven § 3-1.',
    year: 2020,
  },
]

let dir: string
let sqlite: SqliteDatasetStore
let sql: DatasetReader
let memory: DatasetReader

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'allmenning-parity-'))
  const path = join(dir, 'allmenning.sqlite')
  const file = join(dir, 'rows.json')
  writeFileSync(
    file,
    JSON.stringify([
      ...holdings.map((row) => ({ table: 'holdings', row })),
      ...texts.map((row) => ({ table: 'texts', row })),
    ]),
  )
  await importDataset({
    path,
    dataset,
    inputs: [{ file: 'rows.json', path: file, url: null }],
    publishedAt: '2024-12-31',
  })
  sqlite = createSqliteDatasetStore({ path })
  sql = sqlite.reader(dataset)!
  const store = createMemoryDatasetStore()
  await store.load(dataset, { holdings, texts }, { publishedAt: '2024-12-31' })
  memory = store.reader(dataset)!
})
afterAll(() => {
  sqlite.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('the in-memory store answers as the SQLite store', () => {
  it('loads the same rows: rows sharing a key merged, sums added', async () => {
    expect(await memory.count('holdings')).toBe(await sql.count('holdings'))
    expect(memory.version.rows).toBe(sql.version.rows)
    const all: DatasetQuery = { orderBy: [{ column: 'org' }, { column: 'owner' }] }
    expect(await memory.select('holdings', all)).toEqual(await sql.select('holdings', all))
    expect(await memory.select('texts', { orderBy: [{ column: 'doc' }] })).toEqual(
      await sql.select('texts', { orderBy: [{ column: 'doc' }] }),
    )
  })

  const ordered = { orderBy: [{ column: 'org' as const }, { column: 'owner' as const }] }
  it.each<[string, DatasetQuery]>([
    ['equality on text', { where: { org: '111' } }],
    ['a number compared with a text column', { where: { code: 10 } }],
    ['a whole number compared with a text column', { where: { org: 4 } }],
    ['a whole number as text compared with a text column', { where: { org: '4.0' } }],
    ['numeric text in an integer column', { where: { shares: 42 } }],
    ['text that is no number in an integer column', { where: { shares: '12abc' } }],
    ['a text compared with an integer column', { where: { shares: '12' } }],
    ['null', { where: { shares: null } }],
    ['in, mixed types', { where: { code: { in: ['9', 10, null] } } }],
    ['in on integers given as text', { where: { shares: { in: ['0', 3, '100'] } } }],
    ['prefix on text', { where: { org: { prefix: '22' } } }],
    ['prefix with % and _', { where: { org: { prefix: '%' } } }],
    ['prefix on an integer column', { where: { shares: { prefix: '1' } } }],
    ['empty prefix', { where: { code: { prefix: '' } } }],
    [
      'order of numbers, text and null, descending',
      { orderBy: [{ column: 'code', direction: 'desc' }, { column: 'org' }, { column: 'owner' }] },
    ],
    ['order of case and non-ASCII letters', { orderBy: [{ column: 'owner' }, { column: 'org' }] }],
    [
      'order of reals with null first',
      { orderBy: [{ column: 'ratio' }, { column: 'org' }, { column: 'owner' }], limit: 4, offset: 1 },
    ],
    ['a window with no limit', { ...ordered, offset: 5 }],
    ['columns asked for', { ...ordered, columns: ['owner', 'ratio'], where: { org: { prefix: '1' } } }],
  ])('selects: %s', async (_, query) => {
    const q = query.orderBy ? query : { ...query, ...ordered }
    expect(await memory.select('holdings', q)).toEqual(await sql.select('holdings', q))
    expect(await memory.count('holdings', query.where)).toBe(await sql.count('holdings', query.where))
  })

  it.each<[string, DatasetSearch]>([
    ['a word', { match: 'aksjeloven' }],
    ['a quoted prefix', { match: '"aksje"*' }],
    ['a bare prefix', { match: 'lov*' }],
    ['a phrase', { match: '"lov om"' }],
    ['a section as a phrase', { match: '"3 1"' }],
    ['AND, implied', { match: '"lov" "aksjeselskaper"' }],
    ['OR', { match: '"radon" OR "vegtrafikk"' }],
    ['NOT', { match: '"lov" NOT "aksjeloven"' }],
    ['precedence of OR and AND', { match: '"radon" OR "lov" AND "straff"' }],
    ['a column filter', { match: '{title short} : ("aksjeloven"*)' }],
    ['a single column filter', { match: 'short : "asl"' }],
    ['an excluding column filter', { match: '-{body} : "lov"' }],
    [
      'a filter and a group, as lovdata builds them',
      { match: '{title short} : ("straffeloven"*) AND ({body} : ("5a" OR "3 1"))' },
    ],
    ['æ, ø and å kept', { match: '"ærø"' }],
    ['case folded', { match: '"STRAFFELOVEN"' }],
    ['plus-joined phrase', { match: 'lov + om + aksjeselskaper' }],
    ['conditions besides the match', { match: '"lov"*', where: { year: { in: [1997, 2020] } } }],
    ['a window', { match: '"lov"', limit: 2, offset: 1 }],
    ['stored order', { match: '"lov"*', order: 'stored', limit: 3, offset: 1 }],
    ['columns asked for', { match: '"radon"*', columns: ['doc'] }],
    ['nothing found', { match: '"ingenting"' }],
    ['phrases of no tokens left out', { match: '"lov" "§" OR "§"' }],
    ['only phrases of no tokens', { match: '"§"' }],
    ['lower-case keywords are words', { match: 'lov and om' }],
    ['a prefix then a word', { match: 'aksje*selskaper' }],
  ])('searches: %s', async (_, search) => {
    const [mine, theirs] = [
      await memory.search<Record<string, unknown>>('texts', search),
      await sql.search<Record<string, unknown>>('texts', search),
    ]
    expect(mine.total).toBe(theirs.total)
    expect(mine.rows.map(({ _rank, ...row }) => row)).toEqual(theirs.rows.map(({ _rank, ...row }) => row))
    for (const [i, row] of theirs.rows.entries())
      expect(mine.rows[i]!._rank as number).toBeCloseTo(row._rank as number, 9)
  })

  it('refuses what the SQLite store refuses', async () => {
    for (const reader of [memory, sql]) {
      await expect(reader.search('texts', { match: 'nope : "x"' })).rejects.toThrow()
      await expect(reader.search('texts', { match: '"unterminated' })).rejects.toThrow()
      for (const match of ['AND', 'lov AND', 'OR lov', '"a" NOT', '*', 'lov - x', '{title} "lov"'])
        await expect(reader.search('texts', { match })).rejects.toThrow()
      await expect(reader.select('holdings', { where: { year: 1 } })).rejects.toThrow(/no column "year"/)
    }
  })
})
