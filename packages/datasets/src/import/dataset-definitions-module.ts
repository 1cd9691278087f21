import type { DatasetDefinition, SourceDefinition } from '@allmenning/core/source'

/**
 * Where a process finds dataset definitions by module: an import worker cannot be handed
 * functions, so it imports the module that defines them. The export (default `datasets`) is
 * an array of datasets or of sources, or a function returning one.
 */
export interface DatasetDefinitionsRef {
  /** A module specifier or file URL, resolvable from this package. */
  module: string
  export?: string
}

function isSource(value: unknown): value is SourceDefinition {
  // Operations given as a list, or deferred (an outline and a loader): a dataset has neither.
  return typeof value === 'object' && value !== null && 'operations' in value
}

/**
 * The datasets a module defines: what the command line's `--definitions` names (the built-in
 * sources by default). What a store has loaded is another thing: see `LoadedDatasetEntry`.
 *
 * @example
 * const datasets = await loadDatasetDefinitions({ module: '@allmenning/sources', export: 'builtInDatasets' })
 */
export async function loadDatasetDefinitions(ref: DatasetDefinitionsRef): Promise<DatasetDefinition[]> {
  const module = (await import(ref.module)) as Record<string, unknown>
  const name = ref.export ?? 'datasets'
  let value = module[name] ?? (ref.export ? undefined : module.default)
  if (typeof value === 'function') value = (value as () => unknown)()
  if (!Array.isArray(value))
    throw new TypeError(`${ref.module} has no export "${name}" holding an array of datasets or sources`)
  return value.flatMap((item: unknown) => (isSource(item) ? (item.datasets ?? []) : [item as DatasetDefinition]))
}

/** @deprecated Renamed {@link DatasetDefinitionsRef} ("catalog" named four different things). */
export type DatasetCatalogRef = DatasetDefinitionsRef

/**
 * @deprecated Renamed {@link loadDatasetDefinitions} ("catalog" named four different things).
 *
 * @example
 * const datasets = await loadDatasetCatalog({ module: '@allmenning/sources', export: 'builtInDatasets' })
 */
export const loadDatasetCatalog = loadDatasetDefinitions

/**
 * The module of dataset definitions an option names, by its name (`definitions`) or its
 * earlier one (`catalog`): a TypeError names `what` when neither is given, or both name
 * different modules.
 *
 * @example
 * const ref = definitionsOption({ definitions: { module: '@allmenning/sources', export: 'builtInDatasets' } }, 'syncDataset')
 */
export function definitionsOption(
  options: { definitions?: DatasetDefinitionsRef | undefined; catalog?: DatasetDefinitionsRef | undefined },
  what: string,
): DatasetDefinitionsRef {
  const { definitions, catalog } = options
  if (definitions && catalog && (definitions.module !== catalog.module || definitions.export !== catalog.export)) {
    throw new TypeError(`${what}: definitions and catalog (its earlier name) name different modules; give one`)
  }
  const ref = definitions ?? catalog
  if (!ref) throw new TypeError(`${what}: definitions must name the module that defines the dataset`)
  return ref
}
