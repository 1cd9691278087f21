import type { DatasetDefinition, DatasetFile } from '@allmenning/core/source'
import { firmafaktaDatasets } from '../datasets/firmafakta-datasets.js'

/**
 * The firmafakta datasets with every download address moved to a local fake publisher: the
 * publisher's host becomes the first path segment (`https://indatapublic.blob.core.windows.net/x.csv`
 * is served at `<base>/indatapublic.blob.core.windows.net/x.csv`).
 *
 * @example
 * publishedAt('http://127.0.0.1:4000', 'https://indatapublic.blob.core.windows.net/tildelingsrapport/Tildelinger.csv')
 * // 'http://127.0.0.1:4000/indatapublic.blob.core.windows.net/tildelingsrapport/Tildelinger.csv'
 */
export function publishedAt(base: string, url: string): string {
  const real = new URL(url)
  return `${base}/${real.host}${real.pathname}`
}

function moved(file: DatasetFile, base: string): DatasetFile {
  return {
    ...file,
    ...(file.url ? { url: publishedAt(base, file.url) } : {}),
    ...(file.discover ? { discover: { ...file.discover, page: publishedAt(base, file.discover.page) } } : {}),
  }
}

/** The firmafakta datasets as served by the fake publisher at `base`. */
export function datasetsPublishedAt(base: string): DatasetDefinition[] {
  return firmafaktaDatasets.map((dataset) => ({ ...dataset, files: dataset.files.map((file) => moved(file, base)) }))
}

// What the command line and its import worker load with `--definitions`: the address comes from
// the environment, which a worker thread inherits.
export const datasets = datasetsPublishedAt(process.env.ALLMENNING_TEST_PUBLISHER ?? 'http://127.0.0.1:9')
