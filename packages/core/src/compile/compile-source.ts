import type { OperationDefinition } from '../plugin/define-operation.js'
import type { DatasetDefinition } from '../plugin/define-dataset.js'
import { placeFieldProblem } from '../plugin/place-fields.js'
import type { SourceDefinition } from '../plugin/define-source.js'
import { isDeferred, loadOperations, outlineOf, type OperationOutline } from '../plugin/defer-operations.js'
import type { UpstreamDefinition } from '../plugin/define-upstream.js'
import { compilePageParameters, compileParameters, type CompiledParameter } from './compile-parameters.js'
import { toJsonSchema2020, type JsonSchema } from './json-schema.js'
import { outputFields } from './output-fields.js'
import { isArrayOutput, listFieldIsArray, schemaHasPath } from './schema-paths.js'
import { signature } from './signature.js'

/** How an operation's `data` is paged. */
export type Paging =
  /** `data` is the list. */
  | { kind: 'data' }
  /** `data` is an object; the list is one of its fields, and `has_more_results` stands beside it. */
  | { kind: 'field'; field: string }
  /** `data` is not a list: no `limit`/`offset`. */
  | { kind: 'none' }

/** An operation with everything derived from its definition computed once: at start-up, or (its output's JSON Schema and fields) when first described. */
export interface CompiledOperation {
  definition: OperationDefinition
  name: string
  /** The parameters it declares, `limit` and `offset` included when it pages a list. */
  parameters: CompiledParameter[]
  /**
   * `limit` and `offset` of an operation that does not page: accepted and checked, as the spec
   * lets every operation take them, but not listed and not passed on.
   */
  ignoredParameters: CompiledParameter[]
  paging: Paging
  readonly outputSchema: JsonSchema
  readonly outputFields: string[]
  canonicalFieldAliases: Record<string, string[]>
  signature: string
  cacheTtlSeconds: number
  /** The datasets it reads: its own `datasets`, else the source's; its answers are cached under their generations. */
  datasets: readonly DatasetDefinition[]
}

export interface CompiledSource {
  definition: SourceDefinition
  id: string
  /** Its operations' names and place fields, known without loading or compiling them. */
  outline: readonly OperationOutline[]
  /**
   * Its operations by name; compiled when first asked for where sources compile on first use.
   * Where the source defers them, they are there once `load()` has settled; before, reading
   * them is a bug of the route (see `RouteDefinition.prepare`), and after a failed load, or
   * a definition error, reading them throws that error.
   */
  readonly operations: Map<string, CompiledOperation>
  /** Loads deferred operations: undefined once they are there (or failed), else a promise that settles when they are. Never rejects. */
  load(): Promise<void> | undefined
  /** Its upstreams by id, with the deployment's overrides applied. */
  upstreams: Map<string, UpstreamDefinition>
}

const defaultLimit = { default: 25, max: 100 }

function fail(source: SourceDefinition, operation: OperationDefinition, problem: string): never {
  throw new TypeError(`${source.id}.${operation.name}: ${problem}`)
}

function pagingOf(source: SourceDefinition, operation: OperationDefinition, schema: () => JsonSchema): Paging {
  if (operation.list === undefined) return isArrayOutput(operation.output, schema) ? { kind: 'data' } : { kind: 'none' }
  if (listFieldIsArray(operation.output, operation.list)) return { kind: 'field', field: operation.list }
  const properties = (schema().properties ?? {}) as Record<string, JsonSchema>
  const field = properties[operation.list]
  if (schema().type !== 'object' || field?.type !== 'array') {
    fail(source, operation, `list "${operation.list}" must name an array field of the output object`)
  }
  if ('has_more_results' in properties)
    fail(source, operation, 'the core adds has_more_results beside the list; leave it out of the output')
  return { kind: 'field', field: operation.list }
}

/** The output schema as clients see it: with `has_more_results` beside a named list. */
function publishedOutput(schema: JsonSchema, paging: Paging): JsonSchema {
  if (paging.kind !== 'field') return schema
  return {
    ...schema,
    properties: {
      ...(schema.properties as Record<string, JsonSchema>),
      has_more_results: {
        type: 'boolean',
        description: `True when more items of ${paging.field} follow this page (the same as _meta.pagination.has_more_results).`,
      },
    },
    required: [...((schema.required as string[] | undefined) ?? []), 'has_more_results'],
  }
}

/** A value computed on first use and kept. */
function once<T>(compute: () => T): () => T {
  let value: T | undefined
  let computed = false
  return () => {
    if (!computed) {
      value = compute()
      computed = true
    }
    return value as T
  }
}

function compileOperation(source: SourceDefinition, operation: OperationDefinition): CompiledOperation {
  const limit = operation.limit ?? source.limit ?? defaultLimit
  if (limit.default < 1 || limit.default > limit.max)
    fail(source, operation, `limit default ${limit.default} is outside 1..${limit.max}`)
  // The output's JSON Schema is made when something describes the operation (its schema route,
  // the OpenAPI document, MCP's tool list), not at start-up: converting every operation's output
  // was the largest part of creating a gateway, a cost every Lambda cold start paid. It is made
  // at once only where a definition cannot be checked against the valibot schema itself.
  const ownSchema = once(() => toJsonSchema2020(operation.output))
  const paging = pagingOf(source, operation, ownSchema)
  const page = compilePageParameters(limit)
  const own = compileParameters(operation.parameters)
  const parameters = paging.kind === 'none' ? own : [...own, ...page]
  const outputSchema = once(() => publishedOutput(ownSchema(), paging))
  const fields = once(() => outputFields(outputSchema()))
  if (operation.placeField !== undefined) {
    const problem = placeFieldProblem(operation.placeField)
    if (problem) fail(source, operation, problem)
    const field = operation.placeField.name
    const names = parameters.map((p) => p.name)
    const missing = ['lat', 'lon'].filter((name) => !names.includes(name))
    if (missing.length > 0)
      fail(source, operation, `fills the place field ${field} but has no ${missing.join(' or ')} parameter`)
    const required = parameters.filter((p) => p.required && p.name !== 'lat' && p.name !== 'lon')
    if (required.length > 0)
      fail(
        source,
        operation,
        `fills the place field ${field}, so only lat and lon may be required (not ${required.map((p) => p.name).join(', ')})`,
      )
  }
  const aliases = operation.canonicalFieldAliases ?? {}
  for (const [alias, paths] of Object.entries(aliases)) {
    const missing = paths.filter((path) => !schemaHasPath(operation.output, path) && !fields().includes(path))
    if (missing.length > 0)
      fail(source, operation, `alias "${alias}" names ${missing.join(', ')}, which the output schema does not have`)
  }
  const sourceDatasets = source.datasets ?? []
  const undeclared = (operation.datasets ?? []).filter((dataset) => !sourceDatasets.includes(dataset))
  if (undeclared.length > 0)
    fail(
      source,
      operation,
      `reads dataset ${undeclared.map((d) => d.id).join(', ')}, which the source does not declare in its datasets`,
    )
  return {
    definition: operation,
    name: operation.name,
    parameters,
    ignoredParameters: paging.kind === 'none' ? page : [],
    paging,
    get outputSchema() {
      return outputSchema()
    },
    get outputFields() {
      return fields()
    },
    canonicalFieldAliases: aliases,
    signature: signature(operation.name, parameters),
    cacheTtlSeconds: operation.cacheTtlSeconds ?? source.cacheTtlSeconds,
    datasets: operation.datasets ?? sourceDatasets,
  }
}

function checkEntityTypes(source: SourceDefinition, operations: Map<string, CompiledOperation>): void {
  for (const [type, link] of Object.entries(source.entityTypes ?? {})) {
    const target = operations.get(link.operation)
    if (!target)
      throw new TypeError(
        `${source.id}: entity type ${type} links to operation ${link.operation}, which the source does not have`,
      )
    if (!target.parameters.some((p) => p.name === link.parameter)) {
      throw new TypeError(
        `${source.id}: entity type ${type} links to ${link.operation} by "${link.parameter}", which is not one of its parameters`,
      )
    }
  }
}

/**
 * When a gateway compiles its sources: `at-start`, in `createGateway`, so that a definition
 * error stops the gateway from starting; `on-first-use`, each source when something first
 * needs its operations (a call, a descriptor, a search through it), so that a cold start pays
 * only for what it answers. See `GatewayOptions.compileSources`.
 */
export type CompileSources = 'at-start' | 'on-first-use'

function compileOperations(
  source: SourceDefinition,
  definitions: readonly OperationDefinition[],
): Map<string, CompiledOperation> {
  const operations = new Map(definitions.map((operation) => [operation.name, compileOperation(source, operation)]))
  checkEntityTypes(source, operations)
  return operations
}

/**
 * Compiles a source definition, so that a definition error (an alias naming a field the
 * output does not have, an entity type linked to an operation that does not exist, an
 * unsupported parameter type) is a TypeError naming it: when the gateway starts (or, for
 * deferred operations, as soon as they have loaded), or with `on-first-use` when the source's
 * operations are first needed (every time, until fixed). `upstreams` are the deployment's
 * upstreams for this source, overrides applied.
 */
export function compileSource(
  source: SourceDefinition,
  upstreams: UpstreamDefinition[] = source.upstreams,
  when: CompileSources = 'at-start',
): CompiledSource {
  const deferred = isDeferred(source.operations) ? source.operations : undefined
  let definitions = deferred ? undefined : (source.operations as readonly OperationDefinition[])
  let failure: { error: unknown } | undefined
  let loading: Promise<void> | undefined
  let operations: Map<string, CompiledOperation> | undefined
  const compiled: CompiledSource = {
    definition: source,
    id: source.id,
    outline: outlineOf(source.operations),
    upstreams: new Map(upstreams.map((u) => [u.id, u])),
    get operations() {
      if (operations) return operations
      if (failure) throw failure.error
      if (!definitions)
        throw new Error(
          `The operations of source ${source.id} are read before they are loaded: the route must load them first (RouteDefinition.prepare)`,
        )
      return (operations = compileOperations(source, definitions))
    },
    load() {
      if (!deferred || definitions || failure) return undefined
      return (loading ??= loadOperations(source)
        .then((loaded) => {
          definitions = loaded
          if (when === 'at-start') void compiled.operations
        })
        .catch((error: unknown) => {
          failure = { error }
        }))
    },
  }
  if (when === 'at-start' && !deferred) void compiled.operations
  return compiled
}
