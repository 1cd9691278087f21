import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/*
 * The configuration reference, docs/configuration.md, checked against the type it documents:
 * every property of `GatewayOptions` (packages/core/src/gateway-options.ts), and every field
 * of the option objects it holds (`upstream.timeoutMs`, `rateLimit.quota`,
 * `upstreams.<id>.baseUrl`, ...), has a row in a table of the page's "`createGateway` options"
 * whose first column is `option`; and the page names no option the type does not have. The
 * type is read with the TypeScript compiler, so an option added, renamed or removed without
 * the page following fails here, naming it.
 */

const root = fileURLToPath(new URL('../../', import.meta.url))
const optionsFile = `${root}packages/core/src/gateway-options.ts`

/**
 * The options documented field by field, as `name` → how its fields are named: `.` for an
 * object, `.<id>.` for a record of objects by id. Any other option object the type holds must
 * be added here, which the second test insists on.
 */
const optionObjects: Record<string, '.' | '.<id>.'> = {
  upstream: '.',
  upstreams: '.<id>.',
  sharedFlight: '.',
  search: '.',
  places: '.',
  rateLimit: '.',
}

/** Option values that are objects, but the contracts of plugins rather than bags of settings: documented as one row. */
const pluginContracts = new Set(['sources', 'cache', 'explorer', 'datasets', 'extensions'])

interface OptionsOfType {
  names: string[]
  /** Properties whose value is an object with properties of its own, which `optionObjects` does not expand. */
  unexpanded: string[]
}

function optionsOfType(): OptionsOfType {
  const program = ts.createProgram([optionsFile], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  })
  const checker = program.getTypeChecker()
  const source = program.getSourceFile(optionsFile)!
  const declaration = source.statements.find(
    (node): node is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(node) && node.name.text === 'GatewayOptions',
  )
  if (!declaration) throw new Error(`${optionsFile} declares no interface GatewayOptions`)

  const valueType = (symbol: ts.Symbol) =>
    checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(symbol, declaration))
  const isSettingsObject = (type: ts.Type) =>
    (type.flags & ts.TypeFlags.Object) !== 0 &&
    type.getCallSignatures().length === 0 &&
    !checker.isArrayType(type) &&
    (type.getProperties().length > 0 || type.getStringIndexType() !== undefined)

  const names: string[] = []
  const unexpanded: string[] = []
  for (const property of checker.getTypeAtLocation(declaration).getProperties()) {
    const name = property.getName()
    names.push(name)
    const type = valueType(property)
    const how = optionObjects[name]
    if (how === '.') {
      names.push(...type.getProperties().map((field) => `${name}.${field.getName()}`))
    } else if (how === '.<id>.') {
      const entry = type.getStringIndexType()
      if (!entry) throw new Error(`GatewayOptions.${name} is not a record by id`)
      names.push(...entry.getProperties().map((field) => `${name}.<id>.${field.getName()}`))
    } else if (!pluginContracts.has(name) && isSettingsObject(type)) {
      unexpanded.push(name)
    }
  }
  return { names, unexpanded }
}

/** The first cells of the rows of every `option` table in the page's "`createGateway` options" section. */
function documentedOptions(): string[] {
  const page = readFileSync(`${root}docs/configuration.md`, 'utf8')
  const start = page.indexOf('\n## `createGateway` options\n')
  if (start < 0) throw new Error('docs/configuration.md has no "## `createGateway` options" section')
  const end = page.indexOf('\n## ', start + 1)
  const names: string[] = []
  let inTable = false
  for (const line of page.slice(start, end < 0 ? undefined : end).split('\n')) {
    const first = line.startsWith('|') ? line.split('|')[1]!.trim() : undefined
    if (first === undefined) inTable = false
    else if (first === 'option') inTable = true
    else if (inTable && !/^-+$/.test(first)) names.push(/^`([^`]+)`$/.exec(first)?.[1] ?? first)
  }
  return names
}

describe('docs/configuration.md against GatewayOptions', () => {
  const fromType = optionsOfType()
  const documented = documentedOptions()

  it('reads the type and the page', () => {
    expect(fromType.names).toEqual(
      expect.arrayContaining([
        'sources',
        'cache',
        'upstream.timeoutMs',
        'upstreams.<id>.baseUrl',
        'rateLimit.quota',
        'sharedFlight.redis',
      ]),
    )
    expect(documented).toEqual(expect.arrayContaining(['sources', 'publicBaseUrl']))
  })

  it('expands every option object of the type', () => {
    expect(
      fromType.unexpanded,
      'options whose value holds settings of its own: add them to optionObjects (or pluginContracts)',
    ).toEqual([])
  })

  it('documents every option of the type', () => {
    expect(
      fromType.names.filter((name) => !documented.includes(name)),
      'options of GatewayOptions missing from docs/configuration.md',
    ).toEqual([])
  })

  it('documents no option the type does not have, and none twice', () => {
    expect(
      documented.filter((name) => !fromType.names.includes(name)),
      'options in docs/configuration.md that GatewayOptions does not have',
    ).toEqual([])
    expect(
      documented.filter((name, index) => documented.indexOf(name) !== index),
      'options documented twice',
    ).toEqual([])
  })
})
