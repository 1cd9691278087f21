import type { EntitySearch } from './entity-search.js'

/** What {@link deferEntitySearch} needs to know before the search's code is loaded. */
export interface DeferredEntitySearchOptions {
  /**
   * A cheap test, run before anything is loaded, of whether the text could be one the search
   * recognizes (its shape: three letters, nine digits). Only such a text loads the search to
   * ask its own `recognize`; without this test, the deferred search recognizes nothing.
   */
  mayRecognize?(query: string): boolean
}

/**
 * A source's entity search whose code is imported (with `import()`, which a bundler makes a
 * chunk of) when a search first needs it, as {@link deferOperations} does for operations: a
 * search over a table in memory (stations, registers) or its parsers then costs a cold start
 * nothing. `load` is called once per deferred search, however often searches run; a failed load
 * fails that search (the search's coverage says so) and the next search tries again. `recognize`
 * answers as the loaded search's own, after `mayRecognize` let the text through.
 *
 * @example
 * // In a source's module, for defineSource({ …, entitySearch }); its entity-search.ts exports
 * // stationSearch, a search over the station table, which only this import loads.
 * const entitySearch = deferEntitySearch(async () => (await importStationSearch()).stationSearch, {
 *   mayRecognize: (text) => /^\p{L}{2,4}$/u.test(text.trim()),
 * })
 */
export function deferEntitySearch(
  load: () => Promise<EntitySearch>,
  options: DeferredEntitySearchOptions = {},
): EntitySearch {
  let loaded: Promise<EntitySearch> | undefined
  const loadOnce = () => {
    loaded ??= load().catch((error: unknown) => {
      loaded = undefined
      throw error
    })
    return loaded
  }
  const { mayRecognize } = options
  return {
    ...(mayRecognize && {
      // A search that cannot be loaded recognizes nothing; the fan-out then reports its failure.
      recognize: async (query: string) =>
        mayRecognize(query) ? (await loadOnce().catch(() => undefined))?.recognize?.(query) : undefined,
    }),
    search: async (query, ctx) => (await loadOnce()).search(query, ctx),
  }
}
