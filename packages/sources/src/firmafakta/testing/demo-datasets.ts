import { readFileSync } from 'node:fs'
import type { DatasetDefinition } from '@allmenning/core/source'
import type { DemoDatasetLoad } from '../../shared/demo-dataset-load.js'
import { aksjonaerregisteret } from '../datasets/aksjonaerregisteret.js'
import { brregRoller } from '../datasets/brreg-roller.js'
import { cordis } from '../datasets/cordis.js'
import { forskningsradetSoknader } from '../datasets/forskningsradet-soknader.js'
import { innovasjonNorgeTildelinger } from '../datasets/innovasjon-norge-tildelinger.js'
import { skattefunn } from '../datasets/skattefunn.js'

/** Where the demo's files are kept, one folder per dataset id. */
export const firmafaktaDemoDatasetDir = new URL('./fixtures/demo-datasets/', import.meta.url)

/**
 * Rows the demo's shareholder register has beyond the test fixture's, so the documented
 * example (`923609016`) answers in both directions: the state's two thirds of EQUINOR ASA
 * (the figure its JSDoc shows; the count of shares is the fixture's), and a holding of EQUINOR
 * ASA in a company of the fixtures. Made up, in the 2024 extract's format.
 */
export const DEMO_SHAREHOLDER_LINES = [
  '923609016;EQUINOR ASA;Ordinære aksjer;STATEN V/NÆRINGS- OG FISKERIDEPARTEMENTET;912660680;0030 OSLO;NO;2010000000;3000000000',
  '912346161;KYSTLINJE HOLDING AS;Ordinære aksjer;EQUINOR ASA;923609016;4035 STAVANGER;NO;400;1000',
]

/** One dataset of the demo: the files kept for it, each by the name it is published under. */
export interface FirmafaktaDemoDataset {
  dataset: DatasetDefinition
  /** Fixed for the yearly and irregular datasets; today for those published daily. */
  publishedAt: (today: string) => string
  /** `file` as the dataset declares it; `name` the part's own name where it differs. */
  files: Array<{ file: string; name?: string }>
}

const daily = (today: string) => today

/**
 * The firmafakta datasets of the offline demo. Their files are the test fixtures in the
 * publishers' formats (and {@link DEMO_SHAREHOLDER_LINES}), kept as bytes in
 * `fixtures/demo-datasets/<dataset id>/` so the demo reads them without the tools that build them
 * (iconv-lite, fflate), which only tests have; a test checks they are what the builders make.
 *
 * @example
 * firmafaktaDemoDatasets.map((d) => d.dataset.id) // ['aksjonaerregisteret', 'innovasjon_norge_tildelinger', ...]
 */
export const firmafaktaDemoDatasets: FirmafaktaDemoDataset[] = [
  { dataset: aksjonaerregisteret, publishedAt: () => '2024-12-31', files: [{ file: 'aksjonaerregisteret.csv' }] },
  { dataset: innovasjonNorgeTildelinger, publishedAt: daily, files: [{ file: 'Tildelinger.csv' }] },
  {
    dataset: cordis,
    publishedAt: () => '2024-12-31',
    files: [{ file: 'cordis-HORIZONprojects-csv.zip' }, { file: 'cordis-h2020projects-csv.zip' }],
  },
  { dataset: forskningsradetSoknader, publishedAt: () => '2024-08-13', files: [{ file: 'dataset.csv' }] },
  {
    dataset: skattefunn,
    publishedAt: () => '2026-01-31',
    files: [
      { file: 'skattefunn-innsendte-soknader.xlsx', name: 'skattefunn-innsendte-soknader-2002-2024.xlsx' },
      { file: 'skattefunn-innsendte-soknader.xlsx', name: 'skattefunn-innsendte-soknader-per-januar-2026.xlsx' },
    ],
  },
  { dataset: brregRoller, publishedAt: daily, files: [{ file: 'roller-totalbestand.json.gz' }] },
]

/**
 * The path, below {@link firmafaktaDemoDatasetDir}, of one kept file.
 *
 * @example
 * demoFilePath('cordis', { file: 'cordis-h2020projects-csv.zip' }) // 'cordis/cordis-h2020projects-csv.zip'
 */
export function demoFilePath(datasetId: string, file: { file: string; name?: string }): string {
  return `${datasetId}/${file.name ?? file.file}`
}

/**
 * The firmafakta datasets of the offline demo with their files read, ready to import.
 *
 * @example
 * const datasets = createLoadedDatasets()
 * for (const load of firmafaktaDemoDatasetFiles()) await datasets.load(load.dataset, load.files, load.publishedAt)
 */
export function firmafaktaDemoDatasetFiles(today = new Date().toISOString().slice(0, 10)): DemoDatasetLoad[] {
  return firmafaktaDemoDatasets.map(({ dataset, publishedAt, files }) => ({
    dataset,
    publishedAt: publishedAt(today),
    files: files.map((file) => ({
      ...file,
      bytes: readFileSync(new URL(demoFilePath(dataset.id, file), firmafaktaDemoDatasetDir)),
    })),
  }))
}
