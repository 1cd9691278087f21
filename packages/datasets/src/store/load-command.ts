import type { DatasetDefinition } from '@allmenning/core/source'

/**
 * The command of this package's command line that loads a dataset: `sync` for one the
 * command line downloads or derives from others, `import` with the file for one ordered from its publisher. The
 * SQLite store gives it to the gateway, which names it in `dataset_not_loaded` and in source
 * descriptors.
 *
 * @example
 * datasetLoadCommand(aksjonaerregisteret) // 'npx allmenning datasets import aksjonaerregisteret <file>'
 */
export function datasetLoadCommand(dataset: DatasetDefinition): string {
  return dataset.origin.kind === 'order'
    ? `npx allmenning datasets import ${dataset.id} <file>`
    : `npx allmenning datasets sync ${dataset.id}`
}
