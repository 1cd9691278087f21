import type { DatasetDefinition } from '@allmenning/core/source'

/**
 * The files of one bulk dataset as the offline demo loads them: in the publisher's own
 * format, with the name the dataset declares (`file`) and, where one file is published in
 * parts, each part's own name. The fields match what `createLoadedDatasets().load` of
 * `@allmenning/datasets/testing` takes, so sources describe their demo data without
 * depending on the dataset store.
 */
export interface DemoDatasetLoad {
  dataset: DatasetDefinition
  /** When the publisher published this version (ISO 8601 date or time). */
  publishedAt: string
  files: Array<{ file: string; bytes: Buffer; name?: string }>
}
