import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// No module of a package imports itself round a cycle of value imports. Under the test runner
// such a cycle may evaluate in a lucky order, while the bundler's chunks of the built package
// evaluate it in another and a constant is read before it is set: the built package then
// fails on import (a module-level `defineUpstream` given `baseUrl: undefined`). Type-only imports
// vanish in the build and a dynamic import() runs later, so neither makes a cycle.

const root = resolve(import.meta.dirname, '../..')

function moduleFiles(dir: string): string[] {
  const files: string[] = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) {
      if (name !== 'node_modules' && name !== 'dist') files.push(...moduleFiles(path))
    } else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')) files.push(path)
  }
  return files
}

/** The relative modules a file imports or re-exports for their values, evaluated before it. */
function valueImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest)
  const targets: string[] = []
  for (const statement of source.statements) {
    let specifier: ts.Expression | undefined
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((element) => element.isTypeOnly)))
      if (!typeOnly) specifier = statement.moduleSpecifier
    } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly) {
      const clause = statement.exportClause
      const typeOnly = clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((element) => element.isTypeOnly)
      if (!typeOnly) specifier = statement.moduleSpecifier
    }
    if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith('.')) {
      targets.push(resolve(dirname(file), specifier.text.replace(/\.js$/, '.ts')))
    }
  }
  return targets
}

/** Every cycle of value imports among `files`, each as the paths round it. */
function importCycles(files: string[], base: string): string[] {
  const graph = new Map(files.map((file) => [file, valueImports(file)]))
  const state = new Map<string, 'open' | 'done'>()
  const path: string[] = []
  const cycles: string[] = []
  const visit = (file: string) => {
    state.set(file, 'open')
    path.push(file)
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue
      if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next].map((p) => relative(base, p)).join(' → '))
      else if (!state.has(next)) visit(next)
    }
    path.pop()
    state.set(file, 'done')
  }
  for (const file of graph.keys()) if (!state.has(file)) visit(file)
  return cycles
}

describe('module imports', () => {
  it('run round no cycle in any package', () => {
    const packages = readdirSync(join(root, 'packages')).map((name) => join(root, 'packages', name, 'src'))
    expect(importCycles(packages.flatMap(moduleFiles), root)).toEqual([])
  })

  it('sees a cycle of value imports, and not one of type imports or import() (the check above can fail)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'allmenning-cycles-'))
    try {
      const write = (name: string, text: string) => writeFileSync(join(dir, name), text)
      write('a.ts', "import { b } from './b.js'\nexport const a = 'a' + b\n")
      write('b.ts', "export { a } from './a.js'\nexport const b = 'b'\n")
      write('c.ts', "import type { D } from './d.js'\nimport { type E } from './e.js'\nexport type C = D | E\n")
      write('d.ts', "import type { C } from './c.js'\nexport type D = C[]\n")
      write('e.ts', "export type E = string\nexport const load = () => import('./c.js')\nimport { type C } from './c.js'\nexport type F = C\n")
      expect(importCycles(moduleFiles(dir), dir)).toEqual(['a.ts → b.ts → a.ts'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
