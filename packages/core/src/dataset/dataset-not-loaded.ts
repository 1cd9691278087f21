import { GatewayError } from '../http/gateway-error.js'
import { loadCommand, type DatasetDefinition } from '../plugin/define-dataset.js'

/**
 * The 502 for an operation whose dataset is not loaded in this deployment. Like an upstream
 * that is down, the data is missing through no fault of the caller; unlike one, it stays
 * missing until an operator runs the command the message names.
 *
 * @example
 * throw datasetNotLoaded(aksjonaerregisteret)
 * // 502 dataset_not_loaded: Dataset aksjonaerregisteret (Aksjonærregisteret) is not loaded in this deployment; load it with: npx allmenning datasets import aksjonaerregisteret <file>
 * throw datasetNotLoaded(aksjonaerregisteret, store.notLoadedReason?.(aksjonaerregisteret))
 * // … is not loaded in this deployment; the snapshot s3://bucket/datasets is being fetched
 */
export function datasetNotLoaded(dataset: DatasetDefinition, reason?: string): GatewayError {
  return new GatewayError(
    502,
    'dataset_not_loaded',
    `Dataset ${dataset.id} (${dataset.title}) is not loaded in this deployment; ${reason ?? `load it with: ${loadCommand(dataset)}`}`,
  )
}

/**
 * Whether `error` is the 502 of {@link datasetNotLoaded}: for code that answers from whichever
 * of several datasets is loaded, or reports a source as not loaded rather than failed.
 *
 * @example
 * try { return ctx.dataset(brregRoller) } catch (error) { if (isDatasetNotLoaded(error)) return undefined; throw error }
 */
export function isDatasetNotLoaded(error: unknown): error is GatewayError {
  return error instanceof GatewayError && error.code === 'dataset_not_loaded'
}
