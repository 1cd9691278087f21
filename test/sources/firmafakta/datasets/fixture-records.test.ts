import { afterEach, describe, expect, it } from 'vitest'
import type { DatasetDefinition } from '@allmenning/core/source'
import { createMemoryDatasetStore, type DatasetFileInput } from '@allmenning/core/testing'
import { createLoadedDatasets, type LoadedDatasets } from '@allmenning/datasets/testing'
import { aksjonaerregisteret } from '@allmenning/sources/firmafakta'
import { brregRoller } from '../../../../packages/sources/src/firmafakta/datasets/brreg-roller.js'
import {
  aksjonaerregisteret2021Cp1252,
  aksjonaerregisteret2021Records,
  aksjonaerregisteret2024,
  aksjonaerregisteret2024Records,
} from '../../../../packages/sources/src/firmafakta/testing/aksjonaerregisteret-fixtures.js'
import { rollerTotalbestand } from '../../../../packages/sources/src/firmafakta/testing/brreg-roller-fixtures.js'

// firmafakta's own tests load its fixtures into the in-memory store of @allmenning/core/testing:
// the shareholder register as records (cells), as the import's reader yields them from the
// file. Here the real import reads the fixtures' bytes (a byte-order mark, CRLF, windows-1252,
// stray quotes and `;`), and both stores must hold the same rows, so the records stay what the
// file gives.

let sqlite: LoadedDatasets | undefined
afterEach(() => sqlite?.close())

async function both(dataset: DatasetDefinition, file: string, bytes: Buffer, memoryInput: DatasetFileInput) {
  sqlite = createLoadedDatasets()
  const imported = await sqlite.load(dataset, [{ file, bytes }])
  const memory = createMemoryDatasetStore()
  const loaded = await memory.loadFiles(dataset, [memoryInput])
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
})
