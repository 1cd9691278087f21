import type { JsonSchema } from './json-schema.js'

function walk(schema: JsonSchema, prefix: string, into: string[]): void {
  if (Array.isArray(schema.anyOf)) {
    for (const alternative of schema.anyOf as JsonSchema[]) walk(alternative, prefix, into)
    return
  }
  if (schema.type === 'array' && schema.items && typeof schema.items === 'object') {
    walk(schema.items as JsonSchema, `${prefix}[]`, into)
    return
  }
  const join = (key: string) => (prefix === '' ? key : prefix.endsWith('[]') ? `${prefix}.${key}` : `${prefix}.${key}`)
  if (schema.properties && typeof schema.properties === 'object') {
    for (const [key, child] of Object.entries(schema.properties as Record<string, JsonSchema>)) {
      const path = join(key)
      if (!into.includes(path)) into.push(path)
      walk(child, path, into)
    }
  }
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    const path = join('*')
    if (!into.includes(path)) into.push(path)
    walk(schema.additionalProperties as JsonSchema, path, into)
  }
}

/**
 * The dotted field paths of an output schema: `[]` marks array items, `*` any key of a
 * record. An array field is listed by its name and its items' fields under `name[]`.
 *
 * @example
 * outputFields({ type: 'array', items: { type: 'object', properties: { time: { type: 'string' } } } })
 * // ['[].time']
 */
export function outputFields(schema: JsonSchema): string[] {
  const fields: string[] = []
  walk(schema, '', fields)
  return fields
}
