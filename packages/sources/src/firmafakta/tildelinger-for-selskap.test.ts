import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tildelingerForSelskap as operation } from './tildelinger-for-selskap.js'
import { innovasjonNorgeTildelinger } from './datasets/innovasjon-norge-tildelinger.js'
import { tildelingerRecords } from './testing/innovasjon-norge-records.js'
import { createMemoryDatasets, type MemoryDatasets, datasetContext } from './testing/loaded-datasets.js'

// The in-memory store reads the file's records; that the import of @allmenning/datasets reads
// the same rows from the file's bytes (windows-1252, a quoted `;`) is test/sources/firmafakta/datasets/fixture-records.test.ts.
let datasets: MemoryDatasets
beforeAll(async () => {
  datasets = createMemoryDatasets()
  const result = await datasets.load(
    innovasjonNorgeTildelinger,
    [{ file: 'Tildelinger.csv', records: tildelingerRecords() }],
    '2026-11-22T02:00:00.000Z',
  )
  expect(result).toMatchObject({ records: 6, rows: 5, malformed: 1 })
  expect(result.samples[0]).toEqual({
    file: 'Tildelinger.csv',
    record: 6,
    problem: 'Innvilget beløp "ukjent" is not a number',
  })
})
afterAll(() => datasets.close())

const run = (org_nr: string) =>
  operation.run({ org_nr, limit: 25, offset: 0 }, datasetContext('tildelinger_for_selskap', datasets.store))

describe('tildelinger_for_selskap', () => {
  it('lists the awards newest first with every date and number form undone', async () => {
    const { data } = await run('976030788')
    expect(() => v.parse(operation.output, data)).not.toThrow()
    expect(data.antall).toBe(3)
    expect(data.sum_belop).toBe(1_575_000.5)
    expect(data.tildelinger.map((t) => [t.dato, t.belop, t.type_finansiering])).toEqual([
      ['2024-03-15', 1_000_000, 'Tilskudd'],
      ['2021-03-05', 75_000, 'Tilskudd'],
      ['2019-11-02', 500_000.5, 'Lån'],
    ])
    expect(data.tildelinger[0]).toMatchObject({
      bedriftsnavn: 'SESAM AS',
      fylke: 'Trøndelag',
      naeringshovedomraade: 'Industri',
      beslutningsenhet: 'Trøndelag',
    })
    expect(data.note).toMatch(/^From Innovasjon Norge's allocation report as published 2026-11-22/)
  })

  it('keeps a quoted ; inside a company name', async () => {
    const { data } = await run('912346234')
    expect(data.tildelinger.map((t) => t.bedriftsnavn)).toEqual(['SESAM; HOLDING AS'])
  })

  it('answers an empty list for a company without awards', async () => {
    const { data } = await run('974760843')
    expect(data).toMatchObject({ antall: 0, sum_belop: 0, tildelinger: [] })
    expect(data.note).toContain('No awards to 974760843 since 2013.')
  })
})
