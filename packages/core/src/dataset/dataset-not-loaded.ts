import { GatewayError } from '../http/gateway-error.js'
import type { DatasetDefinition } from '../plugin/define-dataset.js'
import type { DatasetStore } from '../plugin/dataset-store.js'

/**
 * The 502 for an operation whose dataset is not loaded in this deployment. Like an upstream
 * that is down, the data is missing through no fault of the caller; unlike one, it stays
 * missing until an operator loads it. How is the store's to say (`loadCommand`); the
 * message names it, and the error carries it as `configure`. A store that knows better why
 * (`notLoadedReason`: a snapshot still being fetched) ends the message with that instead.
 *
 * @example
 * throw datasetNotLoaded(aksjonaerregisteret, store)
 * // 502 dataset_not_loaded: Dataset aksjonaerregisteret (Aksjonærregisteret) is not loaded in this deployment; load it with: npx allmenning datasets import aksjonaerregisteret <file>
 * // a store following a snapshot gives its own reason (`notLoadedReason`):
 * // … is not loaded in this deployment; the snapshot s3://bucket/datasets is being fetched
 */
export function datasetNotLoaded(dataset: DatasetDefinition, store: DatasetStore | undefined): GatewayError {
  const missing = `Dataset ${dataset.id} (${dataset.title}) is not loaded in this deployment`
  const command = store?.loadCommand?.(dataset)
  const reason = store?.notLoadedReason?.(dataset)
  if (reason !== undefined)
    return new GatewayError(
      502,
      'dataset_not_loaded',
      `${missing}; ${reason}`,
      command === undefined ? {} : { configure: command },
    )
  if (command !== undefined)
    return new GatewayError(502, 'dataset_not_loaded', `${missing}; load it with: ${command}`, { configure: command })
  if (store)
    return new GatewayError(502, 'dataset_not_loaded', `${missing}; load it into the deployment's dataset store`, {
      configure: `load ${dataset.id} into the dataset store`,
    })
  return new GatewayError(
    502,
    'dataset_not_loaded',
    `${missing}, which reads no dataset store: give one as createGateway's datasets option`,
    {
      configure: 'createGateway({ datasets })',
    },
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
