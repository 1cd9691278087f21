import { afterEach, describe, expect, it } from 'vitest'
import {
  brregRoller,
  cordis,
  forskningsradetSoknader,
  innovasjonNorgeTildelinger,
  skattefunn,
} from '@allmenning/sources/firmafakta'
import { rollerTotalbestand, soknaderCsv, soknaderRecords } from '@allmenning/sources/firmafakta/testing'
import type { DatasetDefinition } from '@allmenning/core/source'
import { createMemoryDatasetStore, type DatasetFileInput } from '@allmenning/core/testing'
import { createLoadedDatasets, type LoadedDatasets } from '@allmenning/datasets/testing'
import { aksjonaerregisteret } from '@allmenning/sources/firmafakta'
import {
  aksjonaerregisteret2021Cp1252,
  aksjonaerregisteret2021Records,
  aksjonaerregisteret2024,
  aksjonaerregisteret2024Records,
} from '../../../../packages/sources/src/firmafakta/testing/aksjonaerregisteret-fixtures.js'
import {
  h2020Records,
  h2020Zip,
  horizonRecords,
  horizonZip,
} from '../../../../packages/sources/src/firmafakta/testing/cordis-fixtures.js'
import {
  tildelingerCsv,
  tildelingerRecords,
} from '../../../../packages/sources/src/firmafakta/testing/innovasjon-norge-fixtures.js'
import {
  skattefunnHistorical,
  skattefunnHistoricalRecords,
  skattefunnRolling,
  skattefunnRollingRecords,
} from '../../../../packages/sources/src/firmafakta/testing/skattefunn-fixtures.js'

// firmafakta's own tests load its fixtures into the in-memory store of @allmenning/core/testing:
// delimited text and workbooks as records (cells), as the import's reader yields them from the
// file. Here the real import reads the fixtures' bytes (a byte-order mark, CRLF, windows-1252,
// stray quotes and `;`), and both stores must hold the same rows, so the records stay what the
// file gives.

let sqlite: LoadedDatasets | undefined
afterEach(() => sqlite?.close())

async function both(dataset: DatasetDefinition, file: string, bytes: Buffer, memoryInput: DatasetFileInput) {
  return bothOf(dataset, [{ file, bytes }], [memoryInput])
}

/** Loads the files' bytes into the SQLite store and the inputs into the in-memory one: the same rows. */
async function bothOf(
  dataset: DatasetDefinition,
  files: Array<{ file: string; name?: string; bytes: Buffer }>,
  memoryInputs: DatasetFileInput[],
) {
  sqlite = createLoadedDatasets()
  const imported = await sqlite.load(dataset, files)
  const memory = createMemoryDatasetStore()
  const loaded = await memory.loadFiles(dataset, memoryInputs)
  expect([loaded.records, loaded.rows, loaded.malformed]).toEqual([imported.records, imported.rows, imported.malformed])
  for (const table of dataset.tables) {
    const all = { orderBy: Object.keys(table.columns).map((column) => ({ column })) }
    const rows = await sqlite.store.reader(dataset)!.select(table.name, all)
    expect(rows.length, table.name).toBeGreaterThan(0)
    expect(await memory.reader(dataset)!.select(table.name, all), table.name).toEqual(rows)
  }
  return imported
}

describe('the fixtures firmafakta’s tests load into the in-memory store', () => {
  it('the 2024 shareholder extract: its records give the rows its bytes give', async () => {
    const imported = await both(aksjonaerregisteret, 'aksjonaerregisteret.csv', aksjonaerregisteret2024(), {
      file: 'aksjonaerregisteret.csv',
      records: aksjonaerregisteret2024Records(),
    })
    expect(imported).toMatchObject({ rows: 9, malformed: 1 })
  })

  it('the 2021 extract in windows-1252: its records give the rows its bytes give', async () => {
    const imported = await both(aksjonaerregisteret, 'aksjonaerregisteret.csv', aksjonaerregisteret2021Cp1252(), {
      file: 'aksjonaerregisteret.csv',
      records: aksjonaerregisteret2021Records(),
    })
    expect(imported).toMatchObject({ rows: 2, malformed: 0 })
  })

  it('the roles in bulk: the same gzip’d JSON read by both', async () => {
    await both(brregRoller, 'roller-totalbestand.json.gz', rollerTotalbestand(), {
      file: 'roller-totalbestand.json.gz',
      bytes: rollerTotalbestand(),
    })
  })

  it('Innovasjon Norge’s awards in windows-1252: its records give the rows its bytes give', async () => {
    const imported = await both(innovasjonNorgeTildelinger, 'Tildelinger.csv', tildelingerCsv(), {
      file: 'Tildelinger.csv',
      records: tildelingerRecords(),
    })
    expect(imported).toMatchObject({ records: 6, rows: 5, malformed: 1 })
  })

  it('Forskningsrådet’s applications, quoted commas, quotes and line breaks: the same rows', async () => {
    const imported = await both(forskningsradetSoknader, 'dataset.csv', soknaderCsv(), {
      file: 'dataset.csv',
      records: soknaderRecords(),
    })
    expect(imported).toMatchObject({ records: 4, rows: 4, malformed: 0 })
  })

  it('CORDIS’s two zips: the records of each member give the rows the zips give', async () => {
    const horizon = 'cordis-HORIZONprojects-csv.zip'
    const h2020 = 'cordis-h2020projects-csv.zip'
    const members = (file: string, records: ReturnType<typeof horizonRecords>): DatasetFileInput[] =>
      (['project.csv', 'organization.csv'] as const).map((member) => ({ file, member, records: records[member] }))
    const imported = await bothOf(
      cordis,
      [
        { file: horizon, bytes: Buffer.from(horizonZip()) },
        { file: h2020, bytes: Buffer.from(h2020Zip()) },
      ],
      [...members(horizon, horizonRecords()), ...members(h2020, h2020Records())],
    )
    expect(imported).toMatchObject({ records: 6, rows: 5, malformed: 0 })
  })

  it('SkatteFUNN’s two workbooks, dates and numbers in cells: the same rows, the rolling one winning', async () => {
    const file = 'skattefunn-innsendte-soknader.xlsx'
    const historical = 'skattefunn-innsendte-soknader-2002-2024.xlsx'
    const rolling = 'skattefunn-innsendte-soknader-per-januar-2026.xlsx'
    const imported = await bothOf(
      skattefunn,
      [
        { file, name: historical, bytes: Buffer.from(skattefunnHistorical()) },
        { file, name: rolling, bytes: Buffer.from(skattefunnRolling()) },
      ],
      [
        { file, name: historical, records: skattefunnHistoricalRecords() },
        { file, name: rolling, records: skattefunnRollingRecords() },
      ],
    )
    expect(imported).toMatchObject({ records: 5, rows: 4, malformed: 0 })
  })
})
