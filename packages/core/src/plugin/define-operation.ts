import type * as v from 'valibot'
import type { UpstreamClient } from './upstream-calls.js'
import type { UpstreamDefinition } from './define-upstream.js'
import type { DatasetReader } from './dataset-store.js'
import type { DatasetDefinition } from './define-dataset.js'
import type { PlaceFieldDeclaration } from './place-fields.js'

/** Any valibot schema. */
export type AnySchema = v.GenericSchema

/** The parameter schemas of an operation, by query parameter name (without `limit`/`offset`). */
export type ParameterSchemas = Record<string, AnySchema>

/** The page window of an operation whose `data` is a list. */
export interface PageWindow {
  limit: number
  offset: number
}

/** The validated, defaulted parameters an operation runs with; `limit`/`offset` when it pages a list. */
export type OperationParameters<P extends ParameterSchemas> = { [K in keyof P]: v.InferOutput<P[K]> } & PageWindow

/**
 * An entity found in a result: an organisation, a person, an airport, a price area. Its type
 * must be one the source declares in `entityTypes`; the core links it to the operation that
 * tells more.
 */
export interface EntityInput {
  /** Kind of entity, as declared in the source's `entityTypes`: `organization`, `airport`, ... */
  type: string
  /** Identifier within its kind (organisation number, IATA code, area code). */
  id: string
  name?: string
  /**
   * Parameters of the linked operation when they are not simply the id: a person is linked to
   * `roller_i_enhet` by the organisation number the roles were found under.
   */
  linkParameters?: Record<string, string | number>
}

/** What an operation's `run` returns. */
export interface OperationResult<D> {
  /** The payload; its list (the array itself, or the `list` field) is paged by the core unless `page` is given. */
  data: D
  /** Set when the operation paged the upstream itself (the core then does not slice the list). */
  page?: { hasMore: boolean; total?: number }
  /** Overrides the recorded upstream URL in `_provenance.data.source_api`. */
  sourceApi?: string
  /** Raw, unprocessed upstream values worth keeping beside the mapped data. */
  rawValues?: Record<string, unknown>
  /**
   * Set when the upstream gave no more than `cap` items whatever was asked (a service that
   * answers the 100 nearest, the 6 nearest): the answer then says so in `_meta.capped`, with the
   * `limit` the client asked for, so a short list is never mistaken for all there is.
   */
  capped?: { cap: number; reason: string }
}

/** What the core hands an operation for one call. */
export interface OperationContext {
  readonly source: string
  readonly operation: string
  /**
   * The client for one of the source's declared upstreams. Every URL called through it, and
   * the upstream itself, are recorded in the answer's `_provenance`.
   */
  upstream(upstream: UpstreamDefinition): UpstreamClient
  /**
   * The loaded version of one of the operation's declared datasets; a 502 `dataset_not_loaded`
   * naming the command that loads it when it is not loaded. The version that answered is
   * recorded in `_meta.datasets` and `_provenance`.
   */
  dataset(dataset: DatasetDefinition): DatasetReader
}

/**
 * The definition of one operation. Everything a client sees about it (signature, schema,
 * OpenAPI, output fields) is generated from these fields.
 */
export interface OperationDefinition<P extends ParameterSchemas = ParameterSchemas, O extends AnySchema = AnySchema> {
  /** snake_case name, the last path segment of the call. */
  name: string
  /** One or two sentences on what it answers. The signature is appended in descriptors. */
  description: string
  /** Query parameters as valibot schemas; wrap in `v.optional(schema, default)` for optional ones. */
  parameters: P
  /** `limit` bounds for this operation, when they differ from the source's. */
  limit?: { default: number; max: number }
  /** valibot schema of `data`; output fields and the OpenAPI response come from it. */
  output: O
  /**
   * When `data` is an object holding a named list (`{ flights: [...] }`), that field's name:
   * `limit`/`offset` page it, and the core adds `has_more_results` beside it. Leave it out when
   * `data` is the list itself, or is not a list at all (then there is no paging).
   */
  list?: string
  /** Canonical field aliases such as `name` or `timestamp`, mapped to output field paths. */
  canonicalFieldAliases?: Record<string, string[]>
  /** How long a result stays fresh, when it differs from the source's. */
  cacheTtlSeconds?: number
  /**
   * The datasets `run` reads through `ctx.dataset`, some of the source's `datasets`: its answers
   * are cached under the loaded generation of each, so a new import is answered from at once.
   * All the source's datasets when left out; `[]` for an operation that reads none, so its
   * cache hits need not ask the store which generations are loaded.
   */
  datasets?: DatasetDefinition[]
  /**
   * The field of `/api/v1/steder/{lat}/{lon}` this operation fills, and its section: any name,
   * a new one included, as `{ name: 'tide_levels', section: 'weather', description: '…' }`.
   * It must take `lat` and `lon` (WGS84 degrees); its other parameters keep their defaults
   * when the places endpoints call it. When two operations fill the same field, the first
   * source given to `createGateway` wins.
   */
  placeField?: PlaceFieldDeclaration
  /** A sentence for descriptors on where this operation's shape follows the spec or existing clients. */
  shapeNote?: string
  run(params: OperationParameters<P>, ctx: OperationContext): Promise<OperationResult<v.InferOutput<O>>>
  /** Entities in the (paged) data. */
  entities?(data: v.InferOutput<O>, params: OperationParameters<P>): EntityInput[]
}

/**
 * An operation's definition without its name, for a source that defers its operations: the
 * name is the key its outline gives it (see `deferOperations`), written there once.
 */
export type OperationDraft<P extends ParameterSchemas = ParameterSchemas, O extends AnySchema = AnySchema> = Omit<
  OperationDefinition<P, O>,
  'name'
> & { name?: undefined }

/**
 * Defines an operation. Generic over its parameters and output, so `run` is type-checked
 * against the output schema it declares. Without `name`, it is an operation whose name its
 * source's deferred outline gives (`deferOperations`).
 *
 * @example
 * const getFlow = defineOperation({
 *   name: 'get_physical_flow',
 *   description: 'Current physical flow on every interconnector.',
 *   parameters: { area: v.optional(v.pipe(v.string(), v.toUpperCase())) },
 *   output: v.array(v.object({ from_area: v.string(), to_area: v.string(), flow_mw: v.nullable(v.number()), time: v.string() })),
 *   async run(params, ctx) {
 *     const res = await ctx.upstream(statnettApi).getJson('/PhysicalFlowMap/GetFlow')
 *     return { data: checkUpstreamShape(statnettApi, v.array(flowRow), res.body, 'the physical flow').map(toFlow) }
 *   },
 * })
 */
export function defineOperation<P extends ParameterSchemas, O extends AnySchema>(
  definition: OperationDefinition<P, O>,
): OperationDefinition<P, O>
export function defineOperation<P extends ParameterSchemas, O extends AnySchema>(
  definition: OperationDraft<P, O>,
): OperationDraft<P, O>
export function defineOperation<P extends ParameterSchemas, O extends AnySchema>(
  definition: OperationDefinition<P, O> | OperationDraft<P, O>,
): OperationDefinition<P, O> | OperationDraft<P, O> {
  const name = definition.name
  if (name !== undefined && !/^[a-z][a-z0-9_]*$/.test(name)) {
    throw new TypeError(`Operation name "${name}" must be snake_case ([a-z][a-z0-9_]*)`)
  }
  for (const reserved of ['limit', 'offset']) {
    if (reserved in definition.parameters) {
      throw new TypeError(
        `Operation ${name ?? definition.description.slice(0, 40)}: "${reserved}" is added by the core; set \`limit\` bounds instead`,
      )
    }
  }
  return definition
}
