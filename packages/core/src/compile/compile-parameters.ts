import * as v from 'valibot'
import type { AnySchema, ParameterSchemas } from '../plugin/define-operation.js'
import { primaryType, toJsonSchema2020, type JsonSchema } from './json-schema.js'

/** Everything the core needs to know about one query parameter. */
export interface CompiledParameter {
  name: string
  schema: AnySchema
  /** JSON Schema of the value, with `default`, bounds and `enum` where the schema has them. */
  jsonSchema: JsonSchema
  /** How a query string value is read before validation. */
  type: 'string' | 'integer' | 'number' | 'boolean'
  required: boolean
  default?: unknown
  enum?: unknown[]
  description?: string
}

const optionalTypes = new Set(['optional', 'nullish', 'exact_optional', 'undefinedable'])

export function compileParameter(name: string, schema: AnySchema): CompiledParameter {
  const jsonSchema = toJsonSchema2020(schema)
  const type = primaryType(jsonSchema)
  if (type !== 'string' && type !== 'integer' && type !== 'number' && type !== 'boolean') {
    throw new TypeError(`Parameter "${name}" must be a string, number, integer or boolean schema (got ${type ?? 'unknown'})`)
  }
  const required = !optionalTypes.has(schema.type)
  const fallback = required ? undefined : v.getDefault(schema as v.OptionalSchema<AnySchema, unknown>)
  return {
    name,
    schema,
    jsonSchema,
    type,
    required,
    ...(fallback !== undefined ? { default: fallback } : {}),
    ...(Array.isArray(jsonSchema.enum) ? { enum: jsonSchema.enum } : {}),
    ...(typeof jsonSchema.description === 'string' ? { description: jsonSchema.description } : {}),
  }
}

/** The `limit` and `offset` parameters every operation takes. */
export function pageParameters(limit: { default: number; max: number }): ParameterSchemas {
  return {
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(limit.max), v.description('Maximum number of list items returned.')),
      limit.default,
    ),
    offset: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Number of list items skipped before the first one returned.')),
      0,
    ),
  }
}

/**
 * Compiles an operation's (or route's) parameter schemas, in declaration order.
 *
 * @example
 * compileParameters({ q: v.pipe(v.string(), v.minLength(1)) })[0]?.required // true
 */
export function compileParameters(schemas: ParameterSchemas): CompiledParameter[] {
  return Object.entries(schemas).map(([name, schema]) => compileParameter(name, schema))
}
