import type { AnySchema } from '../plugin/define-operation.js'
import type { JsonSchema } from './json-schema.js'

/** The parts of a valibot schema that say where its fields are. */
interface Shape {
  type: string
  wrapped?: Shape
  item?: Shape
  entries?: Record<string, Shape>
  value?: Shape
  options?: Shape[]
}

/** Schemas that stand for the schema they wrap (JSON Schema adds at most `null` beside it). */
const wrappers = new Set([
  'optional',
  'exact_optional',
  'undefinedable',
  'nullable',
  'nullish',
  'non_optional',
  'non_nullable',
  'non_nullish',
])
/** Schemas whose fields are `entries`. */
const objectTypes = new Set(['object', 'loose_object', 'strict_object', 'object_with_rest'])

function unwrap(shape: Shape): Shape {
  while (wrappers.has(shape.type) && shape.wrapped !== undefined) shape = shape.wrapped
  return shape
}

function reaches(shape: Shape, segments: string[]): boolean {
  if (segments.length === 0) return true
  const at = unwrap(shape)
  if ((at.type === 'union' || at.type === 'variant') && Array.isArray(at.options))
    return at.options.some((option) => reaches(option, segments))
  const [head, ...rest] = segments as [string, ...string[]]
  if (head === '[]') return at.type === 'array' && at.item !== undefined && reaches(at.item, rest)
  if (head === '*') return at.type === 'record' && at.value !== undefined && reaches(at.value, rest)
  return (
    objectTypes.has(at.type) &&
    at.entries !== undefined &&
    Object.hasOwn(at.entries, head) &&
    reaches(at.entries[head]!, rest)
  )
}

/**
 * Whether a field path as output fields write it (`[]` for array items, `*` for any key of a
 * record: `flights[].airline`) is in a valibot schema, read from the schema itself. False
 * means only that this reading did not find it; the JSON Schema's fields have the last word.
 *
 * @example
 * schemaHasPath(v.array(v.object({ time: v.string() })), '[].time') // true
 */
export function schemaHasPath(schema: AnySchema, path: string): boolean {
  const segments = path.split('.').flatMap((part) => {
    const name = part.replace(/(\[\])+$/, '')
    const items = (part.length - name.length) / 2
    return [...(name === '' ? [] : [name]), ...Array.from({ length: items }, () => '[]')]
  })
  return reaches(schema as unknown as Shape, segments)
}

/**
 * Whether an output object's field `list` is an array, read from the schema itself: true where
 * the schema shows it plainly, undefined where only its JSON Schema can tell (which then also
 * refuses a list that is not an array, or an output that has `has_more_results` of its own).
 */
export function listFieldIsArray(schema: AnySchema, list: string): true | undefined {
  const shape = schema as unknown as Shape
  if (!objectTypes.has(shape.type) || shape.entries === undefined) return undefined
  if (Object.hasOwn(shape.entries, 'has_more_results')) return undefined
  return shape.entries[list]?.type === 'array' ? true : undefined
}

/**
 * Whether an output converts to a JSON Schema of type array, told from the valibot schema's
 * type where that settles it (a pipe keeps its schema's type), else from the conversion.
 */
export function isArrayOutput(schema: AnySchema, jsonSchema: () => JsonSchema): boolean {
  const type = (schema as { type?: string }).type
  if (type === 'array') return true
  if (type !== undefined && objectTypes.has(type)) return false
  return jsonSchema().type === 'array'
}
