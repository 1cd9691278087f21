import { aksjonaerregisteret } from '@allmenning/sources/firmafakta'
import { brregRoller } from '../../packages/sources/src/firmafakta/datasets/brreg-roller.js'
import { cordis } from '../../packages/sources/src/firmafakta/datasets/cordis.js'
import { forskningsradetSoknader } from '../../packages/sources/src/firmafakta/datasets/forskningsradet-soknader.js'
import { innovasjonNorgeTildelinger } from '../../packages/sources/src/firmafakta/datasets/innovasjon-norge-tildelinger.js'
import { skattefunn } from '../../packages/sources/src/firmafakta/datasets/skattefunn.js'
import { aksjonaerregisteret2024 } from '../../packages/sources/src/firmafakta/testing/aksjonaerregisteret-fixtures.js'
import { rollerTotalbestand } from '../../packages/sources/src/firmafakta/testing/brreg-roller-fixtures.js'
import { h2020Zip, horizonZip } from '../../packages/sources/src/firmafakta/testing/cordis-fixtures.js'
import { soknaderCsv } from '../../packages/sources/src/firmafakta/testing/forskningsradet-fixtures.js'
import { tildelingerCsv } from '../../packages/sources/src/firmafakta/testing/innovasjon-norge-fixtures.js'
import {
  skattefunnHistorical,
  skattefunnRolling,
} from '../../packages/sources/src/firmafakta/testing/skattefunn-fixtures.js'
import { createLoadedDatasets, type LoadedDatasets } from '@allmenning/datasets/testing'

// Every firmafakta dataset in one store: needs both the source and the store, so it lives
// here, above both packages, rather than in either one's testing files.

/**
 * A store with every firmafakta dataset loaded from its small fixture files, for tests that
 * call every operation (the source check, the gateway end to end).
 *
 * @example
 * const datasets = await loadAllDatasets()
 * createGateway({ sources: [firmafakta()], datasets: datasets.store })
 */
export async function loadAllDatasets(): Promise<LoadedDatasets> {
  const datasets = createLoadedDatasets()
  await datasets.load(aksjonaerregisteret, [{ file: 'aksjonaerregisteret.csv', bytes: aksjonaerregisteret2024() }])
  await datasets.load(brregRoller, [{ file: 'roller-totalbestand.json.gz', bytes: rollerTotalbestand() }], '2026-11-22')
  await datasets.load(innovasjonNorgeTildelinger, [{ file: 'Tildelinger.csv', bytes: tildelingerCsv() }], '2026-11-22')
  await datasets.load(cordis, [
    { file: 'cordis-HORIZONprojects-csv.zip', bytes: Buffer.from(horizonZip()) },
    { file: 'cordis-h2020projects-csv.zip', bytes: Buffer.from(h2020Zip()) },
  ])
  await datasets.load(forskningsradetSoknader, [{ file: 'dataset.csv', bytes: soknaderCsv() }], '2024-08-13')
  const file = 'skattefunn-innsendte-soknader.xlsx'
  await datasets.load(skattefunn, [
    { file, name: 'skattefunn-innsendte-soknader-2002-2024.xlsx', bytes: Buffer.from(skattefunnHistorical()) },
    { file, name: 'skattefunn-innsendte-soknader-per-januar-2026.xlsx', bytes: Buffer.from(skattefunnRolling()) },
  ])
  return datasets
}
