import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate'
import { afterEach, describe, expect, it } from 'vitest'
import { skattefunn } from '@allmenning/sources/firmafakta'
import { createLoadedDatasets, type LoadedDatasets } from '@allmenning/datasets/testing'
import { xlsxWorkbook } from '../../../../packages/sources/src/firmafakta/testing/xlsx-workbook.js'

let datasets: LoadedDatasets | undefined
afterEach(() => datasets?.close())

const day = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d))

/** Columns H and I (`Søknad godkjent`, `Søknad avslått`) as Excel booleans, the way one reader of the real file describes them. */
function historicalWithBooleans(): Buffer {
  const files = unzipSync(
    xlsxWorkbook('Søknader 2002-2024', [
      [
        'Innsendt dato',
        'Prosjektnummer',
        'Bedriftsnavn',
        'Prosjekttittel',
        'Organisasjonsnummer',
        'Fylke',
        'Kommunenavn',
        'Søknad godkjent',
        'Søknad avslått',
        'Prosjektets fra-år',
        'Prosjektets til-år',
      ],
      [day(2020, 2, 3), 310001, 'BØLGE AS', 'Godkjent', '912000001', 'Rogaland', 'Stavanger', 1, 0, 2020, 2022],
      [day(2021, 3, 4), 310002, 'BØLGE AS', 'Avslått', '912000001', 'Rogaland', 'Stavanger', 0, 1, 2021, 2022],
      [day(2024, 11, 5), 310003, 'BØLGE AS', 'Ikke avgjort', '912000001', 'Rogaland', 'Stavanger', 0, 0, 2025, 2026],
    ]),
  )
  const sheet = 'xl/worksheets/sheet1.xml'
  files[sheet] = strToU8(
    strFromU8(files[sheet]!).replace(/<c r="([HI]\d+)"><v>([01])<\/v><\/c>/g, '<c r="$1" t="b"><v>$2</v></c>'),
  )
  return Buffer.from(zipSync(files))
}

describe('skattefunn', () => {
  it('reads approval and rejection written as booleans, FALSE being no decision', async () => {
    datasets = createLoadedDatasets()
    const result = await datasets.load(skattefunn, [
      {
        file: 'skattefunn-innsendte-soknader.xlsx',
        name: 'skattefunn-innsendte-soknader-2002-2024.xlsx',
        bytes: historicalWithBooleans(),
      },
    ])
    expect(result).toMatchObject({ records: 3, rows: 3, malformed: 0 })
    const rows = await datasets.store.reader(skattefunn)!.select('soknader', { orderBy: [{ column: 'soknadsnummer' }] })
    expect(rows.map((row) => [row.soknadsnummer, row.status, row.fra])).toEqual([
      ['310001', 'godkjent', '2020'],
      ['310002', 'avslått', '2021'],
      ['310003', 'under behandling', '2025'],
    ])
  })
})
