import type { DatasetDefinition, DatasetFile } from '@allmenning/core/source'
import { ImportError } from '../import/import-types.js'

/**
 * The environment variable that points a dataset's downloads at a mirror:
 * `ALLMENNING_DATASET_<ID>_URL`, the id in capitals.
 *
 * @example
 * datasetMirrorVariable('innovasjon_norge_tildelinger') // 'ALLMENNING_DATASET_INNOVASJON_NORGE_TILDELINGER_URL'
 */
export function datasetMirrorVariable(datasetId: string): string {
  return `ALLMENNING_DATASET_${datasetId.toUpperCase()}_URL`
}

/**
 * The mirror an environment sets for a dataset (see {@link datasetMirrorVariable}), or
 * `undefined` when none is set.
 *
 * @example
 * datasetMirrorFromEnv(process.env, 'cordis') // 'https://mirror.internal/cordis/' when ALLMENNING_DATASET_CORDIS_URL is set
 */
export function datasetMirrorFromEnv(env: Record<string, string | undefined>, datasetId: string): string | undefined {
  const value = env[datasetMirrorVariable(datasetId)]?.trim()
  return value ? value : undefined
}

/**
 * Where to download one of a dataset's files from when a mirror is set. A mirror ending in
 * `/` is a folder holding the files under their declared names (`<mirror><file name>`); any
 * other mirror is the URL of the dataset's only file. A mirror replaces the publisher's page
 * of links for discovered files too: it holds one file under the declared name. Throws an
 * {@link ImportError} for a mirror that is not an http(s) URL, or a file URL given for a
 * dataset of several files.
 *
 * @example
 * mirroredUrl('https://mirror.internal/cordis/', cordis, cordis.files[0]) // 'https://mirror.internal/cordis/cordis-HORIZONprojects-csv.zip'
 */
export function mirroredUrl(mirror: string, dataset: DatasetDefinition, file: DatasetFile): string {
  let base: URL
  try {
    base = new URL(mirror)
  } catch {
    throw new ImportError(`The mirror for ${dataset.id} ("${mirror}") is not a URL`)
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:')
    throw new ImportError(`The mirror for ${dataset.id} ("${mirror}") is not an http or https URL`)
  if (base.pathname.endsWith('/')) return new URL(encodeURIComponent(file.name), base).href
  if (dataset.files.length > 1) {
    throw new ImportError(
      `The mirror for ${dataset.id} ("${mirror}") must be a folder ending in "/": the dataset has ${dataset.files.length} files, ` +
        `downloaded from it by name (${dataset.files.map((f) => f.name).join(', ')})`,
    )
  }
  return base.href
}
