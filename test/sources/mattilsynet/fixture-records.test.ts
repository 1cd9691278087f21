import { afterEach, describe, expect, it } from 'vitest'
import type { DatasetDefinition } from '@allmenning/core/source'
import { createMemoryDatasetStore } from '@allmenning/core/testing'
import { createLoadedDatasets, type LoadedDatasets } from '@allmenning/datasets/testing'
import { ADDRESS_POINTS_FILE, adressepunkter, smilefjes } from '@allmenning/sources/mattilsynet'
import {
  addressPointsCsv,
  addressPointsRecords,
  FIXTURE_LINES,
  inspection,
  mattilsynetDemoDatasetFiles,
  smilefjesCsv,
  smilefjesRecords,
} from '@allmenning/sources/mattilsynet/testing'

// mattilsynet's own tests load its fixtures into the in-memory store of @allmenning/core/testing
// as records (cells), as the import's reader yields them from the file. Here the real import
// reads the fixtures' bytes (a byte-order mark, CRLF, quoted `"` and `;`, a line the mapping
// refuses), and both stores must hold the same rows, so the records stay what the file gives.

let sqlite: LoadedDatasets | undefined
afterEach(() => {
  sqlite?.close()
  sqlite = undefined
})

async function both(dataset: DatasetDefinition, file: string, bytes: Buffer, records: string[][]) {
  sqlite?.close()
  sqlite = createLoadedDatasets()
  const imported = await sqlite.load(dataset, [{ file, bytes }])
  const memory = createMemoryDatasetStore()
  const loaded = await memory.loadFiles(dataset, [{ file, records }])
  expect([loaded.records, loaded.rows, loaded.malformed]).toEqual([imported.records, imported.rows, imported.malformed])
  for (const table of dataset.tables) {
    const all = { orderBy: Object.keys(table.columns).map((column) => ({ column })) }
    const rows = await sqlite.store.reader(dataset)!.select(table.name, all)
    expect(rows.length, table.name).toBeGreaterThan(0)
    expect(await memory.reader(dataset)!.select(table.name, all), table.name).toEqual(rows)
  }
  return imported
}

// A line the mapping refuses: its date is not a date.
const broken = inspection(
  { tilsynsobjektid: 'Z9', navn: 'Feil', adrlinje1: 'X 1', postnr: '0150', tilsynid: 'T9', dato: '31022024' },
  [0, 0, 0, 0, 0],
)

describe('the fixtures mattilsynet’s tests load into the in-memory store', () => {
  it('the smilefjes file: its records give the rows its bytes give, the refused line too', async () => {
    const lines = [...FIXTURE_LINES, broken]
    const imported = await both(smilefjes, 'smilefjes-tilsyn.csv', smilefjesCsv(lines), smilefjesRecords(lines))
    // Nine inspections and seven establishments.
    expect(imported).toMatchObject({ rows: 16, malformed: 1 })
  })

  it('the placed addresses: their records give the rows their bytes give', async () => {
    const imported = await both(adressepunkter, ADDRESS_POINTS_FILE, addressPointsCsv(), addressPointsRecords())
    expect(imported).toMatchObject({ rows: 5, malformed: 0 })
  })

  it('the demo’s files are the fixtures: their bytes give the rows the records give', async () => {
    const records = new Map<string, string[][]>([
      [smilefjes.id, smilefjesRecords(FIXTURE_LINES)],
      [adressepunkter.id, addressPointsRecords()],
    ])
    const loads = mattilsynetDemoDatasetFiles()
    expect(loads.map((load) => load.dataset.id).sort()).toEqual([...records.keys()].sort())
    for (const load of loads) {
      const [file] = load.files
      expect(load.files).toHaveLength(1)
      await both(load.dataset, file!.file, file!.bytes, records.get(load.dataset.id)!)
    }
  })
})
