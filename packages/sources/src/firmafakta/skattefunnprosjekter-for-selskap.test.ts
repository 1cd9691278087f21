import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { skattefunnprosjekterForSelskap as operation } from './skattefunnprosjekter-for-selskap.js'
import { skattefunn } from './datasets/skattefunn.js'
import { skattefunnHistoricalRecords, skattefunnRollingRecords } from './testing/skattefunn-records.js'
import { createMemoryDatasets, type MemoryDatasets, datasetContext } from './testing/loaded-datasets.js'

// The in-memory store reads the file's records; that the import of @allmenning/datasets reads
// the same rows from the file's bytes (two workbooks, date cells) is test/sources/firmafakta/datasets/fixture-records.test.ts.
const file = 'skattefunn-innsendte-soknader.xlsx'
let datasets: MemoryDatasets
beforeAll(async () => {
  datasets = createMemoryDatasets()
  const result = await datasets.load(skattefunn, [
    { file, name: 'skattefunn-innsendte-soknader-2002-2024.xlsx', records: skattefunnHistoricalRecords() },
    { file, name: 'skattefunn-innsendte-soknader-per-januar-2026.xlsx', records: skattefunnRollingRecords() },
  ])
  expect(result).toMatchObject({ records: 5, rows: 4, malformed: 0 })
})
afterAll(() => datasets.close())

const run = (org_nr: string) =>
  operation.run({ org_nr, limit: 25, offset: 0 }, datasetContext('skattefunnprosjekter_for_selskap', datasets.store))

describe('skattefunnprosjekter_for_selskap', () => {
  it('reads both workbooks, their different columns and date cells, the rolling one winning', async () => {
    const { data } = await run('976030788')
    expect(() => v.parse(operation.output, data)).not.toThrow()
    expect(data).toMatchObject({ bedrift: 'SESAM AS', antall: 3, godkjente: 2 })
    expect(data.prosjekter).toEqual([
      {
        soknadsnummer: '350003',
        prosjekttittel: 'Selvlærende låser',
        status: 'godkjent',
        innsendt: '2024-06-01',
        fra: '2024-07-01',
        til: '2026-06-30',
        vedtaksdato: null,
        fylke: 'Trøndelag',
        kommune: 'Trondheim',
        sammendrag: null,
      },
      {
        soknadsnummer: '340002',
        prosjekttittel: 'Avslått idé',
        status: 'avslått',
        innsendt: '2023-03-01',
        fra: '2023',
        til: '2024',
        vedtaksdato: '2023-04-02',
        fylke: 'Trøndelag',
        kommune: 'Trondheim',
        sammendrag: null,
      },
      {
        soknadsnummer: '290001',
        prosjekttittel: 'Smartere dører',
        status: 'godkjent',
        innsendt: '2019-09-02',
        fra: '2019',
        til: '2021',
        vedtaksdato: '2019-10-01',
        fylke: 'Trøndelag',
        kommune: 'Trondheim',
        sammendrag: 'Dører som åpner seg selv.',
      },
    ])
  })

  it('pads an organisation number that lost its leading zero as a number', async () => {
    const { data } = await run('012345678')
    expect(data.prosjekter).toEqual([expect.objectContaining({ soknadsnummer: '360004', status: 'avslått' })])
  })
})
