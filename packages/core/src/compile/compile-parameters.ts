import * as v from 'valibot'
import type { AnySchema, ParameterSchemas } from '../plugin/define-operation.js'
import { primaryType, toJsonSchema2020, type JsonSchema } from './json-schema.js'

/** Everything the core needs to know about one query parameter. */
export interface CompiledParameter {
  name: string
  schema: AnySchema
  /** JSON Schema of the value, with `default`, bounds and `enum` where the schema has them. */
  readonly jsonSchema: JsonSchema
  /** How a query string value is read before validation. */
  type: 'string' | 'integer' | 'number' | 'boolean'
  required: boolean
  default?: unknown
  enum?: unknown[]
  description?: string
}

const optionalTypes = new Set(['optional', 'nullish', 'exact_optional', 'undefinedable'])

/** What the core reads from a parameter's schema to take it from a query string. */
interface ParameterFacts {
  type: string | undefined
  enum?: unknown[]
  description?: string
}

/** The facts as the parameter's JSON Schema states them. */
export function factsOfJsonSchema(jsonSchema: JsonSchema): ParameterFacts {
  return {
    type: primaryType(jsonSchema),
    ...(Array.isArray(jsonSchema.enum) ? { enum: jsonSchema.enum } : {}),
    ...(typeof jsonSchema.description === 'string' ? { description: jsonSchema.description } : {}),
  }
}

type SchemaShape = {
  type: string
  kind?: string
  wrapped?: SchemaShape
  pipe?: SchemaShape[]
  options?: unknown[]
  description?: string
}

/**
 * The same facts read straight from the valibot schema, for the shapes parameters take (a
 * string, number, boolean or picklist, piped with checks, a picklist of its values and a
 * description, perhaps a pipe of such a pipe, perhaps optional), without converting it to
 * JSON Schema; undefined for any other shape, which is converted. Converting every parameter
 * of every operation was most of creating a gateway.
 */
export function quickParameterFacts(schema: AnySchema): ParameterFacts | undefined {
  let shape = schema as unknown as SchemaShape
  // optional and the like describe their inner schema; nullish and nullable would add null.
  if (shape.type === 'optional' || shape.type === 'exact_optional' || shape.type === 'undefinedable') {
    if (shape.pipe !== undefined || shape.wrapped === undefined) return undefined
    shape = shape.wrapped
  }
  return pipedFacts(shape)
}

/** A schema's facts, its pipe's actions applied in order to those of the schema it pipes. */
function pipedFacts(shape: SchemaShape): ParameterFacts | undefined {
  if (shape.pipe === undefined) return plainFacts(shape)
  const piped = shape.pipe[0]
  let facts = piped === undefined ? undefined : pipedFacts(piped)
  for (const action of shape.pipe.slice(1)) {
    if (facts === undefined) return undefined
    if (action.kind === 'schema') facts = narrowedTo(facts, action)
    else if (action.type === 'description') facts = { ...facts, description: action.description }
    else if (action.type === 'integer' && facts.type === 'number') facts = { ...facts, type: 'integer' }
  }
  return facts
}

/** A string, number or boolean, or a picklist of strings or numbers: its type and values. */
function plainFacts(shape: SchemaShape): ParameterFacts | undefined {
  if (shape.type === 'string' || shape.type === 'number' || shape.type === 'boolean') return { type: shape.type }
  if (
    (shape.type === 'picklist' || shape.type === 'enum') &&
    Array.isArray(shape.options) &&
    shape.options.length > 0
  ) {
    const type = typeof shape.options[0]
    return type === 'string' || type === 'number' ? { type, enum: shape.options } : undefined
  }
  return undefined
}

/** A picklist in a pipe (after a trim, say) names the values a value of that type may take. */
function narrowedTo(facts: ParameterFacts, schema: SchemaShape): ParameterFacts | undefined {
  if (schema.type !== 'picklist' || schema.pipe !== undefined || facts.enum !== undefined) return undefined
  const values = plainFacts(schema)
  return values?.enum !== undefined && values.type === facts.type ? { ...facts, enum: values.enum } : undefined
}

export function compileParameter(name: string, schema: AnySchema): CompiledParameter {
  let jsonSchema: JsonSchema | undefined
  const toJson = () => (jsonSchema ??= toJsonSchema2020(schema))
  const facts = quickParameterFacts(schema) ?? factsOfJsonSchema(toJson())
  const type = facts.type
  if (type !== 'string' && type !== 'integer' && type !== 'number' && type !== 'boolean') {
    throw new TypeError(
      `Parameter "${name}" must be a string, number, integer or boolean schema (got ${type ?? 'unknown'})`,
    )
  }
  const required = !optionalTypes.has(schema.type)
  const fallback = required ? undefined : v.getDefault(schema as v.OptionalSchema<AnySchema, unknown>)
  return {
    name,
    schema,
    // Made when something describes the parameter (a schema route, the OpenAPI document, MCP).
    get jsonSchema() {
      return toJson()
    },
    type,
    required,
    ...(fallback !== undefined ? { default: fallback } : {}),
    ...(facts.enum ? { enum: facts.enum } : {}),
    ...(facts.description !== undefined ? { description: facts.description } : {}),
  }
}

/** The `limit` and `offset` parameters every operation takes. */
export function pageParameters(limit: { default: number; max: number }): ParameterSchemas {
  return {
    limit: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(limit.max),
        v.description('Maximum number of list items returned.'),
      ),
      limit.default,
    ),
    offset: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.description('Number of list items skipped before the first one returned.'),
      ),
      0,
    ),
  }
}

const compiledPages = new Map<string, CompiledParameter[]>()

/**
 * `limit` and `offset` compiled, once per default and maximum: most operations share the same
 * pair, and compiling it again for each was a tenth of creating a gateway.
 *
 * @example
 * compilePageParameters({ default: 25, max: 100 }).map((p) => p.name) // ['limit', 'offset']
 */
export function compilePageParameters(limit: { default: number; max: number }): CompiledParameter[] {
  const key = `${limit.default}/${limit.max}`
  let compiled = compiledPages.get(key)
  if (!compiled) {
    compiled = compileParameters(pageParameters(limit))
    compiledPages.set(key, compiled)
  }
  return compiled
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
