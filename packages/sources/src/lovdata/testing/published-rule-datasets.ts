import type { DatasetDefinition } from '@allmenning/core/source'
import { listedDate, lovdataLaws, lovdataRegulations } from '../rule-datasets.js'

/**
 * The two rule datasets with Lovdata's address moved to a local fake (`startFakeLovdata`):
 * downloads from its `/v1/publicData/get/{file}`, dates from its `/v1/publicData/list`.
 *
 * @example
 * rulesPublishedAt(fake.baseUrl)[0]?.files[0]?.url // 'http://127.0.0.1:4000/v1/publicData/get/gjeldende-lover.tar.bz2'
 */
export function rulesPublishedAt(base: string): DatasetDefinition[] {
  return [lovdataLaws, lovdataRegulations].map((dataset) => ({
    ...dataset,
    files: dataset.files.map((file) => ({
      ...file,
      url: `${base}/v1/publicData/get/${file.name}`,
      publishedAt: () => listedDate(file.name, base),
    })),
  }))
}

// What the command line and its import worker load with `--definitions`: the address comes from
// the environment, which a worker thread inherits.
export const datasets = rulesPublishedAt(process.env.ALLMENNING_TEST_LOVDATA ?? 'http://127.0.0.1:9')
