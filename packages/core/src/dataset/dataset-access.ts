import type { DatasetDefinition } from '../plugin/define-dataset.js'
import { datasetNotLoaded } from './dataset-not-loaded.js'
import type { DatasetReader, DatasetStore, DatasetVersion } from '../plugin/dataset-store.js'

/** A dataset one answer was made from, and the version that answered. */
export interface DatasetUse {
  dataset: DatasetDefinition
  version: DatasetVersion
}

/** The datasets one operation call reads, opened on demand and remembered for `_meta` and provenance. */
export interface DatasetAccess {
  open(dataset: DatasetDefinition): DatasetReader
  readonly used: DatasetUse[]
}

/**
 * Opens datasets for one operation call. A dataset the operation did not declare is a
 * programming error (its answers would be cached without regard to that dataset's
 * generation); one the store has not loaded is the operator's 502.
 *
 * @example
 * const access = createDatasetAccess(store, operation.datasets, 'firmafakta.aksjeeiere_for_selskap')
 * const reader = access.open(aksjonaerregisteret)
 */
export function createDatasetAccess(
  store: DatasetStore | undefined,
  declared: readonly DatasetDefinition[],
  operationName: string,
): DatasetAccess {
  const used: DatasetUse[] = []
  return {
    used,
    open(dataset) {
      if (!declared.includes(dataset)) {
        throw new TypeError(
          `${operationName} reads dataset ${dataset.id} without declaring it in its datasets (defineOperation, or defineSource when the operation names none)`,
        )
      }
      const reader = store?.reader(dataset)
      if (!reader) throw datasetNotLoaded(dataset, store)
      if (!used.some((use) => use.dataset === dataset)) used.push({ dataset, version: reader.version })
      return reader
    },
  }
}

/**
 * `_meta.datasets`: which version of each dataset answered, so a client can tell how old the
 * data is (the publisher's date) apart from how old the answer is (`retrieved_at`).
 *
 * @example
 * datasetMeta(access.used) // [{ id: 'aksjonaerregisteret', published_at: '2024-12-31', loaded_at: '…', rows: 1000000, … }]
 */
export function datasetMeta(used: DatasetUse[]) {
  return used.map(({ dataset, version }) => ({
    id: dataset.id,
    title: dataset.title,
    publisher: dataset.publisher,
    license: dataset.license,
    published_at: version.publishedAt,
    loaded_at: version.loadedAt,
    rows: version.rows,
    changes: dataset.changes,
  }))
}

function datasetSourceApi({ dataset, version }: DatasetUse): string {
  const downloaded = version.files
    .map((file) => file.url)
    .find((url): url is string => url !== null && /^https?:/.test(url))
  return downloaded ?? dataset.origin.page
}

/**
 * `_provenance` of an answer read (at least in part) from datasets: `data` names their
 * publishers, the file's URL (or the page it is ordered from) and the licence with its
 * attribution; `datasets` lists each with the version that answered. Upstreams the answer
 * also called stay listed; when it called none, the upstream the core would credit instead
 * is left out, because nothing came from it.
 *
 * @example
 * withDatasetProvenance(access.used, 0, provenance) // provenance: what the pipeline built for the answer
 * // { data: { source: 'Skatteetaten', source_api: 'https://www.skatteetaten.no/…', description: '…' }, datasets: [...], upstreams: [], ... }
 */
export function withDatasetProvenance<
  P extends {
    data: { source: string; source_api: string; description?: string }
    entities: object
    upstreams: unknown[]
  },
>(used: DatasetUse[], upstreamsCalled: number, provenance: P): P {
  if (used.length === 0) return provenance
  const publishers = [...new Set(used.map(({ dataset }) => dataset.publisher))]
  const description = used
    .map(({ dataset }) => `${dataset.title}; licence ${dataset.license}. ${dataset.attribution}`)
    .join(' ')
  const sourceApi = datasetSourceApi(used[0]!)
  const data =
    upstreamsCalled > 0
      ? {
          source: [...publishers, provenance.data.source].join('; '),
          source_api: sourceApi,
          description: `${description} ${provenance.data.description ?? ''}`.trim(),
        }
      : { source: publishers.join('; '), source_api: sourceApi, description }
  const raw = (provenance as { _raw_values?: object })._raw_values
  return {
    ...provenance,
    data,
    entities: { ...provenance.entities, source_api: sourceApi },
    ...(raw ? { _raw_values: { ...data, description: 'Unprocessed values of the data' } } : {}),
    upstreams: upstreamsCalled > 0 ? provenance.upstreams : [],
    datasets: used.map((use) => ({
      id: use.dataset.id,
      title: use.dataset.title,
      publisher: use.dataset.publisher,
      license: use.dataset.license,
      source_api: datasetSourceApi(use),
      published_at: use.version.publishedAt,
      loaded_at: use.version.loadedAt,
    })),
  }
}
