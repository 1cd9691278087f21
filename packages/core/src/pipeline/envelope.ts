import type { CompiledOperation, CompiledSource } from '../compile/compile-source.js'
import type { EntityInput, OperationResult } from '../plugin/define-operation.js'
import type { Links } from '../http/links.js'
import { buildMeta } from './meta.js'
import type { Pagination } from './pagination.js'

/** An entity as the envelope lists it. */
export interface Entity {
  type: string
  id: string
  name?: string
  source: string
  _links: { self?: string }
}

function toEntities(inputs: EntityInput[], sourceId: string, links: Links): Entity[] {
  const seen = new Set<string>()
  const entities: Entity[] = []
  for (const input of inputs) {
    const key = `${input.type}\u0000${input.id}`
    if (seen.has(key)) continue
    seen.add(key)
    entities.push({
      type: input.type,
      id: input.id,
      ...(input.name !== undefined ? { name: input.name } : {}),
      source: sourceId,
      _links: input.more ? { self: links.api(`/kilder/${sourceId}/${input.more.operation}`, input.more.parameters) } : {},
    })
  }
  return entities
}

/**
 * The success envelope of spec 2.1–2.3 for one operation call.
 *
 * @example
 * buildEnvelope({ source, operation, parameters, result, data, pagination, entities, sourceApi, links })
 */
export function buildEnvelope(args: {
  source: CompiledSource
  operation: CompiledOperation
  parameters: Record<string, unknown>
  result: OperationResult<unknown>
  data: unknown
  pagination: Pagination | undefined
  entities: EntityInput[]
  sourceApi: string
  links: Links
}) {
  const { source, operation, links } = args
  const definition = source.definition
  const publisher = {
    source: definition.publisher,
    source_api: args.sourceApi,
    ...(definition.license ? { description: `${definition.name}; licence ${definition.license}` } : { description: definition.name }),
  }
  const derived = {
    source: 'allmenning',
    source_api: args.sourceApi,
    derived_from: 'data',
    description: 'Entities the gateway extracted from the data',
  }
  const raw = args.result.rawValues
  return {
    source: source.id,
    operation: operation.name,
    parameters: args.parameters,
    data: args.data,
    entities: toEntities(args.entities, source.id, links),
    _meta: buildMeta([definition], {
      stale: false,
      ...(args.pagination ? { pagination: args.pagination } : {}),
    }),
    _provenance: {
      data: publisher,
      entities: derived,
      ...(raw ? { _raw_values: { ...publisher, description: 'Unprocessed upstream values' } } : {}),
    },
    ...(raw ? { _raw_values: raw } : {}),
    _links: {
      self: links.api(`/kilder/${source.id}/${operation.name}`, args.parameters),
      source: links.api(`/kilder/${source.id}`),
      wiki: definition.documentation,
    },
  }
}
