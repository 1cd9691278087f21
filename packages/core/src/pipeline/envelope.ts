import type { CompiledOperation, CompiledSource } from '../compile/compile-source.js'
import type { EntityInput, OperationResult } from '../plugin/define-operation.js'
import type { Links } from '../http/links.js'
import { buildMeta } from './meta.js'
import type { Pagination } from './pagination.js'
import { buildProvenance, type UpstreamProvenance, type UpstreamUse } from './provenance.js'
import { datasetMeta, withDatasetProvenance, type DatasetUse } from '../dataset/dataset-access.js'

/** An entity as the envelope lists it. */
export interface Entity {
  type: string
  id: string
  name?: string
  source: string
  _links: { self: string }
}

function toEntities(inputs: EntityInput[], source: CompiledSource, links: Links): Entity[] {
  const seen = new Set<string>()
  const entities: Entity[] = []
  const types = source.definition.entityTypes ?? {}
  for (const input of inputs) {
    const key = `${input.type}\u0000${input.id}`
    if (seen.has(key)) continue
    seen.add(key)
    const type = types[input.type]
    if (!type)
      throw new TypeError(
        `${source.id} returned an entity of type ${input.type}, which it does not declare in entityTypes`,
      )
    const parameters = input.linkParameters ?? { [type.parameter]: input.id }
    entities.push({
      type: input.type,
      id: input.id,
      ...(input.name !== undefined ? { name: input.name } : {}),
      source: source.id,
      _links: { self: links.operation(source.id, type.operation, parameters) },
    })
  }
  return entities
}

/**
 * An operation's envelope as a call inside the process reads it (`gateway.invoke`): the body
 * of its GET, as a value. Shared by every caller that gets the same cached answer, so it is
 * read-only.
 */
export interface OperationEnvelope {
  readonly source: string
  readonly operation: string
  readonly parameters: Readonly<Record<string, unknown>>
  readonly data: unknown
  readonly entities?: readonly unknown[]
  readonly _meta: Readonly<{
    retrieved_at: string
    stale: boolean
    stale_reason?: string
    stale_since?: string
    [field: string]: unknown
  }>
  readonly _provenance: Readonly<{ upstreams?: UpstreamProvenance[]; [field: string]: unknown }>
  readonly _links: Readonly<Record<string, string>>
}

/**
 * The success envelope of spec 2.1–2.3 for one operation call.
 *
 * @example
 * buildEnvelope({ source, operation, parameters, result, data, pagination, entities, upstreams, links })
 */
export function buildEnvelope(args: {
  source: CompiledSource
  operation: CompiledOperation
  parameters: Record<string, unknown>
  result: OperationResult<unknown>
  data: unknown
  pagination: Pagination | undefined
  entities: EntityInput[]
  upstreams: UpstreamUse[]
  links: Links
  /** Datasets the answer was read from. */
  datasets?: DatasetUse[]
  /** When its upstream data was fetched (epoch ms), when that was before this call. */
  retrievedAt?: number | undefined
}) {
  const { source, operation, links } = args
  const definition = source.definition
  const raw = args.result.rawValues
  const datasets = args.datasets ?? []
  return {
    source: source.id,
    operation: operation.name,
    parameters: args.parameters,
    data: args.data,
    entities: toEntities(args.entities, source, links),
    _meta: buildMeta([definition], {
      ...(args.retrievedAt !== undefined ? { retrieved_at: new Date(args.retrievedAt).toISOString() } : {}),
      stale: false,
      ...(args.pagination ? { pagination: args.pagination } : {}),
      ...(args.result.capped ? { capped: { ...args.result.capped, requested_limit: args.parameters['limit'] } } : {}),
      ...(datasets.length > 0 ? { datasets: datasetMeta(datasets) } : {}),
    }),
    _provenance: {
      ...withDatasetProvenance(
        datasets,
        args.upstreams.length,
        buildProvenance({
          sourceName: definition.name,
          uses: args.upstreams,
          fallback: source.upstreams.values().next().value!,
          sourceApi: args.result.sourceApi,
          hasRawValues: raw !== undefined,
        }),
      ),
      ...(definition.demo ? { demo: definition.demo.note } : {}),
    },
    ...(raw ? { _raw_values: raw } : {}),
    _links: {
      self: links.operation(source.id, operation.name, args.parameters),
      source: links.source(source.id),
      wiki: definition.documentation,
    },
  }
}
