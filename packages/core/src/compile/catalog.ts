import type { CompiledOperation, CompiledSource, CompileSources } from './compile-source.js'
import { compileSource } from './compile-source.js'
import type { SourceDefinition } from '../plugin/define-source.js'
import type { DatasetDefinition } from '../plugin/define-dataset.js'
import type { DatasetStore } from '../plugin/dataset-store.js'
import type { UpstreamDefinition, UpstreamOverride } from '../plugin/define-upstream.js'
import { GatewayError } from '../http/gateway-error.js'
import { createPlaceProviders, type PlaceProviders } from './place-providers.js'

/**
 * The source catalog: the sources a gateway serves, compiled once, looked up by id. Every
 * route, descriptor and search reads it; `source_discovery` searches it (the spec's "catalog").
 * The only thing the code calls a catalog: MCP's server over every source is the all-sources
 * server, what a dataset store has loaded is its loaded datasets (`loadedDatasets()`), and the
 * module the datasets command line reads definitions from is named by `--definitions` (the
 * earlier names `catalog()` and `--catalog` are still read, deprecated).
 *
 * @example
 * const catalog = createCatalog([statnett()])
 * catalog.operation('statnett', 'get_physical_flow').operation.name // 'get_physical_flow'
 */
export interface Catalog {
  sources: CompiledSource[]
  source(id: string): CompiledSource
  operation(sourceId: string, name: string): { source: CompiledSource; operation: CompiledOperation }
  has(id: string): boolean
  /** The place fields the sources declare, each with the operation that fills it. */
  places: PlaceProviders
  /** How to load a dataset into the gateway's dataset store, when it has one that says. */
  loadCommand(dataset: DatasetDefinition): string | undefined
  /**
   * Loads the deferred operations of the sources named (of every source with `all`): undefined
   * when they are all there already, else a promise that resolves when every load has settled.
   * A source whose load failed throws its error when its operations are read.
   */
  load(sources: readonly string[] | 'all'): Promise<void> | undefined
}

/** How a gateway's catalog is made from its options. */
export interface CatalogSettings {
  /** The deployment's upstream overrides, by upstream id. */
  overrides?: Record<string, UpstreamOverride>
  datasets?: DatasetStore
  compileSources?: CompileSources
  /** Hears a source whose deferred operations failed to load or compile in the background (`at-start`). */
  onError?: (error: unknown) => void
}

const shown = (text: string) => JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text)

/** The upstreams of every source, with the deployment's overrides applied; an override for no known upstream is an error. */
function overriddenUpstreams(
  definitions: SourceDefinition[],
  overrides: Record<string, UpstreamOverride>,
): Map<string, UpstreamDefinition> {
  const declared = new Map<string, UpstreamDefinition>()
  const upstreams = new Map<string, UpstreamDefinition>()
  for (const upstream of definitions.flatMap((d) => d.upstreams)) {
    const known = declared.get(upstream.id)
    if (known && known.baseUrl !== upstream.baseUrl) {
      throw new TypeError(`Two upstreams have the id "${upstream.id}" (${known.baseUrl} and ${upstream.baseUrl})`)
    }
    declared.set(upstream.id, upstream)
    const override = overrides[upstream.id]
    upstreams.set(upstream.id, override ? Object.freeze({ ...upstream, ...override }) : upstream)
  }
  const unknown = Object.keys(overrides).filter((id) => !upstreams.has(id))
  if (unknown.length > 0) {
    throw new TypeError(
      `The upstreams option names ${unknown.join(', ')}, which no source uses; known upstreams: ${[...upstreams.keys()].join(', ')}`,
    )
  }
  return upstreams
}

/**
 * Compiles a gateway's sources into its source catalog, with the deployment's upstream
 * overrides applied, at once or each on first use (`compileSources`). Two sources or two
 * different upstreams sharing an id stop it either way. With `at-start`, deferred operations
 * begin loading at once, and are compiled as they arrive; with `on-first-use`, when a route
 * first reads them.
 *
 * @example
 * const catalog = createCatalog(builtInSources(process.env), { overrides: { statnett: { baseUrl: 'http://127.0.0.1:4001' } } })
 * await catalog.load('all')
 */
export function createCatalog(definitions: SourceDefinition[], settings: CatalogSettings = {}): Catalog {
  const { overrides = {}, datasets, compileSources: when = 'at-start', onError } = settings
  if (when !== 'at-start' && when !== 'on-first-use')
    throw new TypeError(`compileSources must be 'at-start' or 'on-first-use', not ${JSON.stringify(when)}`)
  const upstreams = overriddenUpstreams(definitions, overrides)
  const sources = definitions.map((d) =>
    compileSource(
      d,
      d.upstreams.map((u) => upstreams.get(u.id) ?? u),
      when,
    ),
  )
  const byId = new Map<string, CompiledSource>()
  for (const source of sources) {
    if (byId.has(source.id)) throw new TypeError(`Two sources have the id "${source.id}"`)
    byId.set(source.id, source)
  }
  const ids = sources.map((s) => s.id).join(', ') || 'none'
  const source = (id: string) => {
    const found = byId.get(id)
    if (!found) throw new GatewayError(404, 'source_not_found', `No source ${shown(id)}; available sources: ${ids}`)
    return found
  }
  function load(ids: readonly string[] | 'all'): Promise<void> | undefined {
    const pending = (ids === 'all' ? sources : ids.map(source)).map((s) => s.load()).filter((p) => p !== undefined)
    if (pending.length === 0) return undefined
    return pending.length === 1 ? pending[0] : Promise.all(pending).then(() => undefined)
  }
  if (when === 'at-start') {
    // Loaded in the background from the start, so they are there by the first request that reads them;
    // a failure is told at once rather than only when some request reads that source.
    for (const s of sources) {
      void s.load()?.then(() => {
        try {
          void s.operations
        } catch (error) {
          onError?.(error)
        }
      })
    }
  }
  return {
    sources,
    source,
    has: (id) => byId.has(id),
    places: createPlaceProviders(sources),
    loadCommand: (dataset) => datasets?.loadCommand?.(dataset),
    load,
    operation(sourceId, name) {
      const found = source(sourceId)
      const operation = found.operations.get(name)
      if (!operation) {
        const names = [...found.operations.keys()].join(', ')
        throw new GatewayError(
          404,
          'operation_not_found',
          `Source ${sourceId} has no operation ${shown(name)}; its operations: ${names}`,
        )
      }
      return { source: found, operation }
    },
  }
}
