import {
  isDatasetNotLoaded,
  type DatasetDefinition,
  type DatasetReader,
  type OperationContext,
} from '@allmenning/core/source'

/**
 * The loaded version of a dataset an answer is better with but can do without: undefined
 * when it is not loaded (the placed addresses, before the geocoding step has run).
 *
 * @example
 * const points = optionalDataset(ctx, adressepunkter) // undefined: rows say not_yet_geocoded
 */
export function optionalDataset(ctx: OperationContext, dataset: DatasetDefinition): DatasetReader | undefined {
  try {
    return ctx.dataset(dataset)
  } catch (error) {
    if (isDatasetNotLoaded(error)) return undefined
    throw error
  }
}
