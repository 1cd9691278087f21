import type { OperationDefinition, ParameterSchemas, AnySchema } from './define-operation.js'
import type { UpstreamDefinition } from './define-upstream.js'
import type { EntitySearch } from './entity-search.js'
import type { DatasetDefinition } from './define-dataset.js'
import { outlineOf, type DeferredOperations } from './defer-operations.js'

/** A source that is related to another, shown in its descriptor. */
export interface RelatedSource {
  id: string
  reason: string
}

/** A kind of entity a source's operations find, and the operation that tells more about one. */
export interface EntityType {
  /** The operation of the same source that an entity of this kind links to. */
  operation: string
  /** The parameter of that operation the entity's id fills, unless the entity gives `linkParameters`. */
  parameter: string
}

/** A setting the deployment has not given, and the operations that need it. */
export interface MissingSetting {
  /** What to give: an environment variable (`ALLMENNING_NOBIL_API_KEY`), or a few words naming the setting. */
  configure: string
  /** The operations that cannot answer without it; every operation of the source when left out. */
  operations?: string[]
}

/** The definition of one data source. Descriptors, schemas and OpenAPI are generated from it. */
export interface SourceDefinition {
  /** URL-safe id, the `{source}` path segment. */
  id: string
  name: string
  description: string
  /** Where the upstream data is documented. */
  documentation: string
  /** Broad topic, for example `energy`, `business`, `transport`, `law`. */
  topic: string
  /** Shown keywords, also matched by discovery search. */
  keywords: string[]
  /** Curated navigation synonyms matched by discovery search but not shown. */
  synonyms?: string[]
  /** Languages of the data itself (`_meta.content_languages`). */
  contentLanguages: string[]
  /** How long results stay fresh by default. */
  cacheTtlSeconds: number
  /** `limit` bounds for every list operation of the source; default 25, at most 100. */
  limit?: { default: number; max: number }
  /** The upstream services its operations call, as declared with `defineUpstream`. */
  upstreams: UpstreamDefinition[]
  /** Bulk datasets its operations read through `ctx.dataset(handle)`, as declared with `defineDataset`. */
  datasets?: DatasetDefinition[]
  /** The kinds of entity its operations extract, each linked to the operation that tells more. */
  entityTypes?: Record<string, EntityType>
  /** How the source searches its entities for a text, for cross-source search. */
  entitySearch?: EntitySearch
  relatedSources?: RelatedSource[]
  /**
   * What this deployment has not given that operations need, such as a key: each names the
   * setting to give (an environment variable) and the operations that cannot answer without
   * it (every operation when left out). Discovery says those operations are not configured,
   * and `/api/v1/health` reports the source `not_configured` when none of its operations can
   * answer. The operations themselves still answer 502 `upstream_not_configured`.
   *
   * @example
   * notConfigured: apiKey ? [] : [{ configure: 'ALLMENNING_NOBIL_API_KEY' }]
   */
  notConfigured?: MissingSetting[]
  /**
   * Set when the source's upstreams are played locally from recorded fixtures (the offline
   * demo): every answer from it says so in `_meta.demo` and `_provenance.demo`, and its answers
   * are cached apart from real ones.
   */
  demo?: { note: string }
  /**
   * Its operations: the definitions themselves, or (`deferOperations`) their outline and a
   * loader that imports them when a request first reads them, so that a cold start evaluates
   * no source code it does not answer from.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  operations: OperationDefinition<any, any>[] | DeferredOperations
}

/**
 * Defines a source. Built-in sources are made with this same function.
 *
 * @example
 * const met = defineUpstream({ id: 'met', name: 'MET Norway', baseUrl: 'https://api.met.no/weatherapi', publisher: 'MET Norway', license: 'CC BY 4.0' })
 * export const weather = () =>
 *   defineSource({
 *     id: 'weather', name: 'Weather', description: 'Forecasts.', documentation: 'https://api.met.no/',
 *     topic: 'weather', keywords: ['weather', 'vær'], contentLanguages: ['en'], cacheTtlSeconds: 600,
 *     upstreams: [met], operations: [forecast],
 *   })
 */
export function defineSource(definition: SourceDefinition): SourceDefinition {
  if (!/^[a-z][a-z0-9_-]*$/.test(definition.id)) {
    throw new TypeError(`Source id "${definition.id}" must be lower-case letters, digits, "-" or "_"`)
  }
  if (definition.upstreams.length === 0) {
    throw new TypeError(`Source ${definition.id} names no upstream`)
  }
  const upstreamIds = new Set<string>()
  for (const upstream of definition.upstreams) {
    if (upstreamIds.has(upstream.id)) throw new TypeError(`Source ${definition.id} lists upstream ${upstream.id} twice`)
    upstreamIds.add(upstream.id)
  }
  const seen = new Set<string>()
  for (const operation of outlineOf(definition.operations)) {
    if (seen.has(operation.name)) {
      throw new TypeError(`Source ${definition.id} defines operation ${operation.name} twice`)
    }
    seen.add(operation.name)
  }
  for (const missing of definition.notConfigured ?? []) {
    for (const name of missing.operations ?? []) {
      if (!seen.has(name))
        throw new TypeError(
          `Source ${definition.id} says ${missing.configure} is missing for ${name}, which it does not define`,
        )
    }
  }
  return definition
}

export type { OperationDefinition, ParameterSchemas, AnySchema }
