import type { DatasetDefinition } from './define-dataset.js'
import type { DatasetReader } from './dataset-reader.js'

// What operations read of a loaded dataset, in a file of its own: a dataset's definition (a
// derived one's run reads the datasets it is made from) needs it, and this store needs the definition.
export type { DatasetCondition, DatasetQuery, DatasetReader, DatasetSearch, DatasetVersion } from './dataset-reader.js'

/**
 * Where the gateway finds loaded datasets; given as `createGateway({ datasets })`. The
 * built-in implementation is `createSqliteDatasetStore` from `@allmenning/datasets`.
 *
 * @example
 * const store: DatasetStore = { reader: () => undefined } // a store with nothing loaded
 */
export interface DatasetStore {
  /**
   * The loaded generation of `dataset`, or `undefined` when none is loaded (or it was made for
   * an older definition). Asked on every request of an operation that reads the dataset, cache
   * hits included, to key its answer by the generation: it should answer from memory, and
   * see a generation another process loaded by the next request (the SQLite store: by the
   * next that arrives in a later millisecond).
   */
  reader(dataset: DatasetDefinition): DatasetReader | undefined
  /**
   * How an operator loads `dataset` into this store, named by the `dataset_not_loaded` error
   * (as its `configure`) and by source descriptors (`load_command`). The SQLite store gives
   * its command line's: `npx allmenning datasets sync cordis`.
   */
  loadCommand?(dataset: DatasetDefinition): string
  /**
   * Why `dataset` has no reader now, when the store knows better than "not loaded here": a
   * store following a published snapshot says it is still being fetched. Read only after
   * `reader` answered `undefined`; its text ends the 502 `dataset_not_loaded` message.
   */
  notLoadedReason?(dataset: DatasetDefinition): string | undefined
}
