import { toJsonSchema } from '@valibot/to-json-schema'
import type { AnySchema } from '../plugin/define-operation.js'

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) as plain data. */
export type JsonSchema = { [key: string]: unknown }

/**
 * Converts a valibot schema to JSON Schema 2020-12. Actions JSON Schema cannot express
 * (custom checks, transforms) are left out; they still run when values are validated.
 *
 * @example
 * toJsonSchema2020(v.pipe(v.number(), v.integer(), v.minValue(1))) // { type: 'integer', minimum: 1 }
 */
export function toJsonSchema2020(schema: AnySchema): JsonSchema {
  const { $schema: _dialect, ...rest } = toJsonSchema(schema, {
    target: 'draft-2020-12',
    errorMode: 'ignore',
  }) as JsonSchema
  return rest
}

/** The JSON type a schema describes, looking through `anyOf` with `null` (nullable values). */
export function primaryType(schema: JsonSchema): string | undefined {
  if (typeof schema.type === 'string') return schema.type
  if (Array.isArray(schema.anyOf)) {
    for (const alternative of schema.anyOf as JsonSchema[]) {
      const type = primaryType(alternative)
      if (type !== undefined && type !== 'null') return type
    }
  }
  if (Array.isArray(schema.enum)) return typeof schema.enum[0]
  return undefined
}
