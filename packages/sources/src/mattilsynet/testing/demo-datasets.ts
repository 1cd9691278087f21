import { readFileSync } from 'node:fs'
import type { DemoDatasetLoad } from '../../shared/demo-dataset-load.js'
import { addressKey } from '../address-key.js'
import { ADDRESS_POINT_COLUMNS, ADDRESS_POINTS_FILE, adressepunkter } from '../datasets/adressepunkter.js'
import { smilefjes } from '../datasets/smilefjes.js'
import { FIXTURE_ADDRESS_POINTS } from './smilefjes-fixtures.js'

/** Where the demo's files are kept, one folder per dataset id. */
export const mattilsynetDemoDatasetDir = new URL('./fixtures/demo-datasets/', import.meta.url)

/**
 * The placed-addresses file as the geocoding step writes it, for the fixture's addresses.
 *
 * @example
 * addressPointsCsv().toString().split('\n')[0] // 'adresse_key;status;lat;lon;…'
 */
export function addressPointsCsv(points = FIXTURE_ADDRESS_POINTS, checkedAt = '2026-11-27T04:00:00.000Z'): Buffer {
  const lines = addressPointsRecords(points, checkedAt).map((cells) => cells.join(';'))
  return Buffer.from(`${lines.join('\n')}\n`, 'utf8')
}

/**
 * The records of {@link addressPointsCsv} as the import's reader yields them from the bytes,
 * header first, for the in-memory dataset store.
 *
 * @example
 * addressPointsRecords()[1]?.[0] // 'kirkegata 15|0153'
 */
export function addressPointsRecords(
  points = FIXTURE_ADDRESS_POINTS,
  checkedAt = '2026-11-27T04:00:00.000Z',
): string[][] {
  const rows = points.map((p) => [
    addressKey(p.street, p.postnr) ?? '',
    'placed',
    String(p.lat),
    String(p.lon),
    p.kommunenummer,
    p.kommunenavn,
    p.street,
    checkedAt,
  ])
  return [[...ADDRESS_POINT_COLUMNS], ...rows]
}

/**
 * The mattilsynet datasets of the offline demo, with their files read, ready to import: the
 * smilefjes file in Mattilsynet's format (the test fixture's lines, BOM and all), published
 * today as Mattilsynet rebuilds it daily, and the placed addresses in the geocoding step's.
 *
 * @example
 * const datasets = createLoadedDatasets() // of @allmenning/datasets/testing
 * for (const load of mattilsynetDemoDatasetFiles()) await datasets.load(load.dataset, load.files, load.publishedAt)
 */
export function mattilsynetDemoDatasetFiles(today = new Date().toISOString().slice(0, 10)): DemoDatasetLoad[] {
  const read = (path: string) => readFileSync(new URL(path, mattilsynetDemoDatasetDir))
  return [
    {
      dataset: smilefjes,
      publishedAt: today,
      files: [{ file: 'smilefjes-tilsyn.csv', bytes: read('mattilsynet_smilefjes/smilefjes-tilsyn.csv') }],
    },
    {
      dataset: adressepunkter,
      publishedAt: today,
      files: [{ file: ADDRESS_POINTS_FILE, bytes: read(`mattilsynet_adressepunkter/${ADDRESS_POINTS_FILE}`) }],
    },
  ]
}
