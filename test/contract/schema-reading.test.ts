import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { builtInSources } from '@allmenning/sources'
import {
  factsOfJsonSchema,
  pageParameters,
  quickParameterFacts,
} from '../../packages/core/src/compile/compile-parameters.js'
import { toJsonSchema2020 } from '../../packages/core/src/compile/json-schema.js'
import { outputFields } from '../../packages/core/src/compile/output-fields.js'
import { listFieldIsArray, schemaHasPath } from '../../packages/core/src/compile/schema-paths.js'
import type { AnySchema } from '@allmenning/core/source'
import { loadOperations } from '@allmenning/core/source'

// A parameter's type, values and description, and whether an output has a field, are read
// straight from the valibot schema where the shape allows, so creating a gateway need not
// convert every schema to JSON Schema. Wherever that quick reading answers, it must say what
// the JSON Schema says.

const loaded = await Promise.all(
  builtInSources({}).map(async (source) => ({ source, operations: await loadOperations(source) })),
)
const operations = loaded.flatMap(({ source, operations }) =>
  operations.map((operation) => ({ name: `${source.id}.${operation.name}`, operation })),
)

const parameters: [string, AnySchema][] = [
  ...loaded.flatMap(({ source, operations }) =>
    operations.flatMap((operation) =>
      Object.entries(operation.parameters).map(([name, schema]): [string, AnySchema] => [
        `${source.id}.${operation.name}.${name}`,
        schema as AnySchema,
      ]),
    ),
  ),
  ...Object.entries(pageParameters({ default: 25, max: 100 })),
]

const shapes: Record<string, AnySchema> = {
  string: v.string(),
  'piped string': v.pipe(v.string(), v.trim(), v.minLength(1), v.description('A name')),
  'optional integer with a default': v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(1), v.description('How many')),
    5,
  ),
  'number whose last description wins': v.pipe(v.number(), v.description('first'), v.description('second')),
  boolean: v.optional(v.boolean()),
  'picklist of strings': v.optional(v.pipe(v.picklist(['a', 'b']), v.description('One of them')), 'a'),
  'picklist of numbers': v.picklist([1, 2, 3]),
  enum: v.enum({ Yes: 'yes', No: 'no' }),
  nullish: v.nullish(v.pipe(v.string(), v.description('Left out or null'))),
  nullable: v.nullable(v.number()),
  'optional with a pipe of its own': v.pipe(v.optional(v.string()), v.description('Outside')),
  union: v.union([v.literal('x'), v.literal('y')]),
  'pipe of a pipe': v.pipe(v.pipe(v.number(), v.integer()), v.description('outer')),
  'pipe of a pipe described inside only': v.pipe(v.pipe(v.string(), v.trim(), v.description('inner')), v.minLength(2)),
  'pipe of a pipe described twice': v.optional(
    v.pipe(v.pipe(v.string(), v.description('inner')), v.description('outer')),
  ),
  'picklist in a pipe of strings': v.optional(
    v.pipe(v.string(), v.trim(), v.toUpperCase(), v.picklist(['NO1', 'NO2']), v.description('Area')),
  ),
  'picklist of numbers in a pipe of strings': v.pipe(
    v.string(),
    v.picklist([1, 2]) as unknown as v.PicklistSchema<['1'], undefined>,
  ),
  'two picklists in a pipe': v.pipe(v.string(), v.picklist(['a', 'b']), v.picklist(['a'])),
}

describe('parameter facts read without JSON Schema', () => {
  it('are those of the JSON Schema for every parameter of every built-in source, and cover nearly all of them', () => {
    const quick = parameters.map(([name, schema]) => [name, quickParameterFacts(schema), schema] as const)
    const differing = quick.filter(
      ([, facts, schema]) =>
        facts !== undefined && JSON.stringify(facts) !== JSON.stringify(factsOfJsonSchema(toJsonSchema2020(schema))),
    )
    expect(differing.map(([name]) => name)).toEqual([])
    // The quick reading must be what nearly every parameter takes, or creating a gateway is slow again.
    expect(quick.filter(([, facts]) => facts !== undefined).length).toBeGreaterThan(parameters.length * 0.9)
  })

  it('are those of the JSON Schema for every shape read quickly, and left to the conversion for the rest', () => {
    const readQuickly = Object.entries(shapes).filter(([, schema]) => quickParameterFacts(schema) !== undefined)
    for (const [name, schema] of readQuickly)
      expect({ name, facts: quickParameterFacts(schema) }).toEqual({
        name,
        facts: factsOfJsonSchema(toJsonSchema2020(schema)),
      })
    expect(Object.keys(shapes).filter((name) => !readQuickly.some(([quick]) => quick === name))).toEqual([
      'nullish',
      'nullable',
      'optional with a pipe of its own',
      'union',
      'picklist of numbers in a pipe of strings',
      'two picklists in a pipe',
    ])
  })
})

describe('output fields read without JSON Schema', () => {
  it('find every field of every built-in output that its JSON Schema has, and no other', () => {
    const notFound: string[] = []
    const wronglyFound: string[] = []
    for (const { name, operation } of operations) {
      const output = operation.output as AnySchema
      const fields = outputFields(toJsonSchema2020(output))
      for (const field of fields) if (!schemaHasPath(output, field)) notFound.push(`${name} ${field}`)
      for (const field of [...fields.map((f) => `${f}.not_a_field`), 'not_a_field', '[].not_a_field', '*']) {
        if (!fields.includes(field) && schemaHasPath(output, field)) wronglyFound.push(`${name} ${field}`)
      }
      for (const paths of Object.values(operation.canonicalFieldAliases ?? {}))
        for (const path of paths) if (!schemaHasPath(output, path)) notFound.push(`${name} alias ${path}`)
    }
    expect(wronglyFound).toEqual([])
    expect(notFound).toEqual([])
  })

  it('tell a named list that is an array, and leave the rest to the JSON Schema', () => {
    for (const { name, operation } of operations.filter(({ operation }) => operation.list !== undefined)) {
      expect({ name, quick: listFieldIsArray(operation.output as AnySchema, operation.list!) }).toEqual({
        name,
        quick: true,
      })
    }
    const output = v.object({ items: v.array(v.string()), total: v.number(), maybe: v.nullable(v.array(v.string())) })
    expect(listFieldIsArray(output, 'items')).toBe(true)
    expect(listFieldIsArray(output, 'total')).toBeUndefined()
    expect(listFieldIsArray(output, 'maybe')).toBeUndefined()
    expect(
      listFieldIsArray(v.object({ items: v.array(v.string()), has_more_results: v.boolean() }), 'items'),
    ).toBeUndefined()
    expect(schemaHasPath(v.record(v.string(), v.object({ mw: v.number() })), '*.mw')).toBe(true)
    expect(schemaHasPath(v.object({ a: v.nullish(v.array(v.array(v.object({ b: v.string() })))) }), 'a[][].b')).toBe(
      true,
    )
    expect(schemaHasPath(v.union([v.object({ a: v.string() }), v.object({ b: v.string() })]), 'b')).toBe(true)
  })
})
