import type { DatasetDefinition } from '../plugin/define-dataset.js'
import type { DatasetStore } from '../plugin/dataset-store.js'

/**
 * What is appended to the cache key of an answer that may read `datasets`: the `loadedAt` of
 * the generation of each that the store has loaded now (`-` for one not loaded). A new import
 * changes it, so the next request misses and is answered from the new generation: no 200,
 * remembered 404, 304 or stale answer of the previous one is served after the switch, in
 * this instance or any other sharing the cache. Empty for an answer that reads no dataset, so
 * its key (and its cache hit) costs nothing more.
 *
 * The store is asked on every request of such an answer, so `store.reader` must be cheap:
 * the SQLite store answers from memory, reading `PRAGMA data_version` at most once a millisecond.
 *
 * @example
 * const key = `${operationKey}${generationKey(store, [aksjonaerregisteret])}`
 * // 'allmenning:v1:firmafakta:aksjeeiere_for_selskap:{…}:/api/v1\u0000datasets=2026-11-21T03:00:00.000Z'
 */
export function generationKey(store: DatasetStore | undefined, datasets: readonly DatasetDefinition[]): string {
  if (datasets.length === 0 || store === undefined) return ''
  let key = '\u0000datasets='
  for (let i = 0; i < datasets.length; i++) {
    if (i > 0) key += ','
    key += store.reader(datasets[i]!)?.version.loadedAt ?? '-'
  }
  return key
}

/**
 * Every dataset some of `operations` read, each once: what an answer made by calling any of
 * them (a search, a place bundle) is cached under, through {@link generationKey}.
 *
 * @example
 * datasetsOf([...source.operations.values()]) // [aksjonaerregisteret, brregRoller, ...]
 */
export function datasetsOf(operations: Iterable<{ datasets: readonly DatasetDefinition[] }>): DatasetDefinition[] {
  const found = new Set<DatasetDefinition>()
  for (const operation of operations) for (const dataset of operation.datasets) found.add(dataset)
  return [...found]
}
