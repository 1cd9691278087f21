import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openSqlite } from './sqlite-connection.js'
import { defineDataset, type StreamContent } from '@allmenning/core/source'
import { createSqliteDatasetStore, importDataset } from '@allmenning/datasets'

/** Lines of a text file as records, through the `stream` format any reader can plug into. */
const lines: StreamContent = {
  format: { type: 'stream' },
  async *records(input) {
    let text = ''
    for await (const chunk of input) text += Buffer.from(chunk).toString('utf8')
    yield* text.split('\n').filter(Boolean)
  },
  rows: () => (record) => {
    const [name, kind, body] = String(record).split('|')
    return { table: 'notes', row: { name: name!, kind: kind!, body: body! } }
  },
}

const notes = defineDataset({
  id: 'notes',
  title: 'Notes',
  description: 'Test notes.',
  publisher: 'Test',
  license: 'NLOD 2.0',
  attribution: 'Test',
  origin: { kind: 'download', page: 'https://example.no/' },
  changes: 'daily',
  files: [{ name: 'notes.txt', url: 'https://example.no/notes.txt', content: lines }],
  tables: [
    {
      name: 'notes',
      columns: { name: 'text', kind: 'text', body: 'text' },
      fullText: { columns: ['name', 'body'], weights: [10, 1] },
    },
  ],
})

let dir: string
let db: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'allmenning-fts-'))
  db = join(dir, 'allmenning.sqlite')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const load = (text: string) => {
  const path = join(dir, `${Date.now()}-${Math.random()}.txt`)
  writeFileSync(path, text)
  return importDataset({
    path: db,
    dataset: notes,
    inputs: [{ file: 'notes.txt', path, url: null }],
    publishedAt: null,
  })
}

describe('full-text tables', () => {
  it('read records from a stream format, rank by column weight, keep æ ø å, filter by column', async () => {
    await load(
      'Båtloven|lov|Om båter.\nHavneforskrift|forskrift|Båtloven gjelder i havna, og båtloven skal følges.\nSkoleloven|lov|Om skolen på Ærø.\n',
    )
    const reader = createSqliteDatasetStore({ path: db }).reader(notes)!
    const found = await reader.search<{ name: string; _rank: number }>('notes', { match: '"båtloven"' })
    expect(found.total).toBe(2)
    expect(found.rows.map((row) => row.name)).toEqual(['Båtloven', 'Havneforskrift'])
    expect(found.rows[0]!._rank).toBeLessThan(found.rows[1]!._rank)
    expect((await reader.search('notes', { match: '"båtloven"', where: { kind: 'forskrift' } })).rows).toMatchObject([
      { name: 'Havneforskrift' },
    ])
    expect((await reader.search('notes', { match: '"batloven"' })).total).toBe(0)
    expect((await reader.search('notes', { match: '"ærø"' })).rows).toMatchObject([{ name: 'Skoleloven' }])
    expect((await reader.search('notes', { match: '"båtloven"', limit: 1, offset: 1 })).rows).toMatchObject([
      { name: 'Havneforskrift' },
    ])
    await expect(reader.search('kinds', { match: '"x"' })).rejects.toThrow(/no table "kinds"/)
  })

  it('ranks on the index alone and reads only the page; order stored lists matches as loaded, unscored', async () => {
    await load(
      'Båtloven|lov|Om båter.\nHavneforskrift|forskrift|Båtloven gjelder i havna, og båtloven skal følges.\nSkoleloven|lov|Båtloven nevnes.\n',
    )
    const reader = createSqliteDatasetStore({ path: db }).reader(notes)!
    const ranked = await reader.search<{ name: string; body: string }>('notes', { match: '"båtloven"' })
    expect(ranked.rows[0]!.name).toBe('Båtloven')
    // Every declared column of a page's rows is still there.
    expect(ranked.rows.find((row) => row.name === 'Havneforskrift')).toMatchObject({
      kind: 'forskrift',
      body: 'Båtloven gjelder i havna, og båtloven skal følges.',
    })
    const stored = await reader.search<{ name: string; _rank: number }>('notes', {
      match: '"båtloven"',
      order: 'stored',
      limit: 2,
      offset: 1,
    })
    expect(stored.total).toBe(3)
    expect(stored.rows.map((row) => [row.name, row._rank])).toEqual([
      ['Havneforskrift', 0],
      ['Skoleloven', 0],
    ])
    const filtered = await reader.search<{ name: string }>('notes', {
      match: '"båtloven"',
      order: 'stored',
      where: { kind: 'lov' },
    })
    expect([filtered.total, filtered.rows.map((row) => row.name)]).toEqual([2, ['Båtloven', 'Skoleloven']])
    // Only the columns asked for: a hit list need not read each match's text.
    const [named] = (
      await reader.search<Record<string, unknown>>('notes', { match: '"båtloven"', columns: ['name'], limit: 1 })
    ).rows
    expect(Object.keys(named!).sort()).toEqual(['_rank', 'name'])
    expect(await reader.select('notes', { where: { kind: 'lov' }, columns: ['name'] })).toEqual([
      { name: 'Båtloven' },
      { name: 'Skoleloven' },
    ])
    await expect(reader.select('notes', { columns: ['nope'] })).rejects.toThrow(/no column "nope"/)
  })

  it('keeps the statements and counts of two tables of one dataset apart', async () => {
    const pairs = defineDataset({
      ...notes,
      id: 'pairs',
      files: [
        {
          name: 'notes.txt',
          url: 'https://example.no/notes.txt',
          content: {
            ...lines,
            rows: () => (record: unknown) => {
              const [table, body] = String(record).split('|')
              return { table: table!, row: { body: body! } }
            },
          },
        },
      ],
      tables: [
        { name: 'a', columns: { body: 'text' }, fullText: { columns: ['body'] } },
        { name: 'b', columns: { body: 'text' }, fullText: { columns: ['body'] } },
      ],
    })
    const path = join(dir, 'pairs.txt')
    writeFileSync(path, 'a|lov om båter\nb|lov om havner\nb|lov om skoler\n')
    await importDataset({
      path: db,
      dataset: pairs,
      inputs: [{ file: 'notes.txt', path, url: null }],
      publishedAt: null,
    })
    const reader = createSqliteDatasetStore({ path: db }).reader(pairs)!
    // The same query on each table: one statement shape per table, not one per dataset.
    expect((await reader.search('a', { match: '"lov"' })).total).toBe(1)
    expect((await reader.search('b', { match: '"lov"' })).total).toBe(2)
    expect([await reader.count('a'), await reader.count('b')]).toEqual([1, 2])
    expect((await reader.select('b', { where: { body: { prefix: 'lov' } } })).length).toBe(2)
    expect((await reader.select('a', { where: { body: { prefix: 'lov' } } })).length).toBe(1)
  })

  it('a new generation brings its own index and drops the old one with its shadow tables', async () => {
    await load('Båtloven|lov|Om båter.\n')
    await load('Skoleloven|lov|Om skolen.\n')
    const reader = createSqliteDatasetStore({ path: db }).reader(notes)!
    expect((await reader.search('notes', { match: '"skoleloven"' })).total).toBe(1)
    expect((await reader.search('notes', { match: '"båtloven"' })).total).toBe(0)
    const raw = openSqlite(db, { readonly: true })
    const tables = raw
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%notes%'")
      .all()
      .map((row) => String(row.name))
    raw.close()
    const generations = new Set(tables.map((name) => /__g(\d+)/.exec(name)?.[1]))
    expect(generations.size).toBe(1)
  })
})
