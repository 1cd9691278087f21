import type { OperationDefinition, ParameterSchemas, AnySchema } from './define-operation.js'

/** One upstream service a source calls. */
export interface UpstreamDefinition {
  /** Short id; the example servers read `ALLMENNING_UPSTREAM_<ID>` to override `baseUrl`. */
  id: string
  /** Human-readable name used in provenance and in 502 messages. */
  name: string
  /** The real service's base URL by default; overridable through the source factory's options. */
  baseUrl: string
  /** Per-call time limit in milliseconds, when it differs from the gateway's. */
  timeoutMs?: number
}

/** A source that is related to another, shown in its descriptor. */
export interface RelatedSource {
  id: string
  reason: string
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
  /** Who publishes the data; `_provenance.data.source`. */
  publisher: string
  /** Licence of the upstream data, stated in provenance. */
  license?: string
  /** How long results stay fresh by default. */
  cacheTtlSeconds: number
  /** `limit` bounds for every operation of the source; default 25, at most 100. */
  limit?: { default: number; max: number }
  upstreams: UpstreamDefinition[]
  relatedSources?: RelatedSource[]
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  operations: OperationDefinition<any, any>[]
}

/**
 * Defines a source. Built-in sources are made with this same function.
 *
 * @example
 * export function weather(options: { baseUrl?: string } = {}) {
 *   return defineSource({
 *     id: 'weather', name: 'Weather', description: 'Forecasts.', documentation: 'https://api.met.no/',
 *     topic: 'weather', keywords: ['weather', 'vær'], contentLanguages: ['en'], publisher: 'MET Norway',
 *     cacheTtlSeconds: 600,
 *     upstreams: [{ id: 'met', name: 'MET Norway', baseUrl: options.baseUrl ?? 'https://api.met.no' }],
 *     operations: [forecast],
 *   })
 * }
 */
export function defineSource(definition: SourceDefinition): SourceDefinition {
  if (!/^[a-z][a-z0-9_-]*$/.test(definition.id)) {
    throw new TypeError(`Source id "${definition.id}" must be lower-case letters, digits, "-" or "_"`)
  }
  if (definition.upstreams.length === 0) {
    throw new TypeError(`Source ${definition.id} names no upstream`)
  }
  const seen = new Set<string>()
  for (const operation of definition.operations) {
    if (seen.has(operation.name)) {
      throw new TypeError(`Source ${definition.id} defines operation ${operation.name} twice`)
    }
    seen.add(operation.name)
  }
  return definition
}

export type { OperationDefinition, ParameterSchemas, AnySchema }
