import type { DemoDatasetLoad } from '../../shared/demo-dataset-load.js'
import { udirEnheter } from '../datasets/udir-enheter.js'
import { UDIR_ENHETER_FILES } from '../datasets/udir-register-files.js'
import { nbrUnits, nsrUnits } from './fake-udir.js'

/**
 * A register's file of records as the `udir_enheter` dataset also reads it (a JSON array of
 * `/v4/enhet/{orgnr}` answers, the form a mirror holding a finished crawl gives): what the
 * offline demo and the tests load instead of crawling.
 *
 * @example
 * JSON.parse(recordsFile(nsrUnits).toString())[0].Organisasjonsnummer // '971200006'
 */
export function recordsFile(units: Record<string, unknown>[]): Buffer {
  return Buffer.from(JSON.stringify(units), 'utf8')
}

/**
 * The utdanning dataset of the offline demo, ready to import: both registers' fixture units,
 * each with its record (the fake registers' own), published today as Udir's data changes daily.
 *
 * @example
 * const datasets = createLoadedDatasets()
 * for (const load of utdanningDemoDatasetFiles()) await datasets.load(load.dataset, load.files, load.publishedAt)
 */
export function utdanningDemoDatasetFiles(today = new Date().toISOString().slice(0, 10)): DemoDatasetLoad[] {
  return [
    {
      dataset: udirEnheter,
      publishedAt: today,
      files: [
        { file: UDIR_ENHETER_FILES.nsr, bytes: recordsFile(nsrUnits) },
        { file: UDIR_ENHETER_FILES.nbr, bytes: recordsFile(nbrUnits) },
      ],
    },
  ]
}
