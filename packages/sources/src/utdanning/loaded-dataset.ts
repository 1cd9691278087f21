import { isDatasetNotLoaded, type DatasetReader, type OperationContext } from '@allmenning/core/source'
import { udirEnheter } from './datasets/udir-enheter.js'

/**
 * The `udir_enheter` dataset when it is loaded: then no request calls Udir for a position.
 * Undefined when it is not (no store, or not synced yet), and the operations read positions
 * at request time within their budget, as they did before the dataset.
 *
 * @example
 * const reader = loadedDataset(ctx) // undefined: rows may say coordinates_status "pending"
 */
export function loadedDataset(ctx: OperationContext): DatasetReader | undefined {
  try {
    return ctx.dataset(udirEnheter)
  } catch (error) {
    if (isDatasetNotLoaded(error)) return undefined
    throw error
  }
}
