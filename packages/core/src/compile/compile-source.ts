import type { OperationDefinition } from '../plugin/define-operation.js'
import type { SourceDefinition } from '../plugin/define-source.js'
import { compileParameters, pageParameters, type CompiledParameter } from './compile-parameters.js'
import { toJsonSchema2020, type JsonSchema } from './json-schema.js'
import { outputFields } from './output-fields.js'
import { signature } from './signature.js'

/** An operation with everything derived from its definition computed once, at start-up. */
export interface CompiledOperation {
  definition: OperationDefinition
  name: string
  parameters: CompiledParameter[]
  outputSchema: JsonSchema
  outputFields: string[]
  aliases: Record<string, string[]>
  signature: string
  cacheTtlSeconds: number
}

export interface CompiledSource {
  definition: SourceDefinition
  id: string
  operations: Map<string, CompiledOperation>
}

const defaultLimit = { default: 25, max: 100 }

function compileOperation(source: SourceDefinition, operation: OperationDefinition): CompiledOperation {
  const limit = operation.limit ?? source.limit ?? defaultLimit
  if (limit.default < 1 || limit.default > limit.max) {
    throw new TypeError(`${source.id}.${operation.name}: limit default ${limit.default} is outside 1..${limit.max}`)
  }
  const parameters = compileParameters({ ...operation.parameters, ...pageParameters(limit) })
  const outputSchema = toJsonSchema2020(operation.output)
  const fields = outputFields(outputSchema)
  const aliases = operation.aliases ?? {}
  for (const [alias, paths] of Object.entries(aliases)) {
    const missing = paths.filter((path) => !fields.includes(path))
    if (missing.length > 0) {
      throw new TypeError(`${source.id}.${operation.name}: alias "${alias}" names ${missing.join(', ')}, which the output schema does not have`)
    }
  }
  return {
    definition: operation,
    name: operation.name,
    parameters,
    outputSchema,
    outputFields: fields,
    aliases,
    signature: signature(operation.name, parameters),
    cacheTtlSeconds: operation.cacheTtlSeconds ?? source.cacheTtlSeconds,
  }
}

/**
 * Compiles a source definition, so that a definition error (an alias naming a field the
 * output does not have, an unsupported parameter type) stops the gateway from starting
 * instead of surfacing in a response.
 */
export function compileSource(source: SourceDefinition): CompiledSource {
  return {
    definition: source,
    id: source.id,
    operations: new Map(source.operations.map((operation) => [operation.name, compileOperation(source, operation)])),
  }
}
