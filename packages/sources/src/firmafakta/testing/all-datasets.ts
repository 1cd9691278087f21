import { aksjonaerregisteret } from '../datasets/aksjonaerregisteret.js'
import { brregRoller } from '../datasets/brreg-roller.js'
import { cordis } from '../datasets/cordis.js'
import { forskningsradetSoknader } from '../datasets/forskningsradet-soknader.js'
import { innovasjonNorgeTildelinger } from '../datasets/innovasjon-norge-tildelinger.js'
import { skattefunn } from '../datasets/skattefunn.js'
import { aksjonaerregisteret2024Records } from './aksjonaerregisteret-records.js'
import { rollerTotalbestand } from './brreg-roller-fixtures.js'
import { type CordisRecords, h2020Records, horizonRecords } from './cordis-records.js'
import { soknaderRecords } from './forskningsradet-fixtures.js'
import { tildelingerRecords } from './innovasjon-norge-records.js'
import { createMemoryDatasets, type MemoryDatasets } from './loaded-datasets.js'
import { skattefunnHistoricalRecords, skattefunnRollingRecords } from './skattefunn-records.js'

// A zip's records are given member by member, as the import reads them from the zip.
const members = (file: string, records: CordisRecords) =>
  (['project.csv', 'organization.csv'] as const).map((member) => ({ file, member, records: records[member] }))

/**
 * An in-memory store with every firmafakta dataset loaded from its fixtures' records (the roles
 * in bulk from their gzip'd JSON, which the in-memory store reads itself), for tests that call
 * every operation: the source check. The records are the files the import of
 * `@allmenning/datasets` reads (test/sources/firmafakta/datasets/fixture-records.test.ts).
 *
 * @example
 * const datasets = await loadAllDatasets()
 * createGateway({ sources: [firmafakta()], datasets: datasets.store })
 */
export async function loadAllDatasets(): Promise<MemoryDatasets> {
  const datasets = createMemoryDatasets()
  await datasets.load(aksjonaerregisteret, [
    { file: 'aksjonaerregisteret.csv', records: aksjonaerregisteret2024Records() },
  ])
  await datasets.load(brregRoller, [{ file: 'roller-totalbestand.json.gz', bytes: rollerTotalbestand() }], '2026-11-22')
  await datasets.load(
    innovasjonNorgeTildelinger,
    [{ file: 'Tildelinger.csv', records: tildelingerRecords() }],
    '2026-11-22',
  )
  await datasets.load(cordis, [
    ...members('cordis-HORIZONprojects-csv.zip', horizonRecords()),
    ...members('cordis-h2020projects-csv.zip', h2020Records()),
  ])
  await datasets.load(forskningsradetSoknader, [{ file: 'dataset.csv', records: soknaderRecords() }], '2024-08-13')
  const file = 'skattefunn-innsendte-soknader.xlsx'
  await datasets.load(skattefunn, [
    { file, name: 'skattefunn-innsendte-soknader-2002-2024.xlsx', records: skattefunnHistoricalRecords() },
    { file, name: 'skattefunn-innsendte-soknader-per-januar-2026.xlsx', records: skattefunnRollingRecords() },
  ])
  return datasets
}
