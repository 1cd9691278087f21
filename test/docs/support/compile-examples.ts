import { dirname, join, relative } from 'node:path'
import ts from 'typescript'
import { exampleNames, type ExampleSyntax } from './example-names.js'

/** One code example to type-check: a Markdown block or a JSDoc `@example`. */
export interface CodeExample {
  /** Where it is written, relative to the repository's root. */
  file: string
  /** 1-based line of its first code line in that file. */
  line: number
  code: string
  /** Per code line, how many characters of the file's line precede it (a JSDoc line's ` * `). */
  columnOffsets?: number[]
  language: 'ts' | 'js'
  /**
   * Modules whose exports the example may use without importing them, searched in this order
   * (specifiers relative to the example's own file, or package names).
   */
  scope: string[]
  /**
   * For a JSDoc example, the imports of the file it documents, by the name each binds
   * (`v` → `import * as v from 'valibot'`): the example reads as code in that file would.
   */
  fileImports?: Record<string, string>
}

/** One compiler error in an example. */
export interface ExampleFailure {
  example: CodeExample
  /** Where, in the file the example is written in: `README.md:97:5`. */
  at: string
  /** The compiler's message and code: `Cannot find name 'ctx'. (TS2304)`. */
  message: string
  code: number
  /** The example's line the error is on, trimmed; empty when it is in the imports made for it. */
  source: string
}

/** What compiling the examples found. */
export interface CompileResult {
  failures: ExampleFailure[]
  /** How many examples were compiled. */
  compiled: number
  /** The names of the reader's own data the examples used undeclared, with how often. */
  dataNamesUsed: Map<string, number>
}

/** "Cannot find name", its "Did you mean" variant, and a shorthand property with nothing to refer to. */
const UNDECLARED = new Set([2304, 2552, 18004])

/**
 * Type-checks code examples as modules of their own, in one program under the repository's
 * tsconfig.json (its `customConditions` resolve the workspace packages to their TypeScript
 * sources through their exports, so nothing needs building). A name an example uses without declaring or importing it is
 * imported from the first module of its `scope` that exports it. One that no module exports
 * is an error, so a renamed or removed API fails the check, unless it is a global or one of
 * `dataNames` (the reader's own data: a row, a body, a database) used as data, never called,
 * constructed or used as a type. Statements that are not a module's (no `import` or `export`)
 * are wrapped in an async function, so `await` and `return` read as in the reader's own code.
 *
 * @example
 * compileExamples('/work/repo', [{ file: 'README.md', line: 12, code: 'createGateway({ sources })', language: 'ts', scope: ['@allmenning/core'] }], new Set())
 */
export function compileExamples(root: string, examples: CodeExample[], dataNames: ReadonlySet<string>): CompileResult {
  const configPath = join(root, 'tsconfig.json')
  const config = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path))
  if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'))
  // Examples are fragments of the reader's code: an untyped callback parameter is theirs to type.
  const overrides = { noEmit: true, allowJs: true, checkJs: true, noImplicitAny: false }
  const options = ts.parseJsonConfigFileContent(config.config, ts.sys, root, overrides, configPath).options

  const virtual = new Map<string, string>()
  const host = virtualHost(options, virtual)

  // First pass: what each scope module exports, and which names are global.
  const plans = examples.map((example, i) => ({
    example,
    path: examplePath(root, example, i),
    names: exampleNames(example.code),
  }))
  const probe = join(root, '__globals_probe__.ts')
  virtual.set(probe, 'export {}\n')
  const scopeProbes = new Map<string, string>()
  for (const plan of plans) {
    for (const specifier of plan.example.scope) {
      const key = scopeKey(plan.path, specifier)
      if (scopeProbes.has(key)) continue
      const probePath = join(dirname(plan.path), `__scope_probe_${scopeProbes.size}__.ts`)
      virtual.set(probePath, `import * as scope from '${specifier}'\nexport { scope }\n`)
      scopeProbes.set(key, probePath)
    }
  }
  const first = ts.createProgram({ rootNames: [probe, ...scopeProbes.values()], options, host })
  const checker = first.getTypeChecker()
  const everything = ts.SymbolFlags.Value | ts.SymbolFlags.Type | ts.SymbolFlags.Namespace
  const globals = new Set(
    checker.getSymbolsInScope(first.getSourceFile(probe)!.endOfFileToken, everything).map((symbol) => symbol.name),
  )
  const exportsOf = new Map<string, Map<string, 'value' | 'type'>>()
  for (const [key, probePath] of scopeProbes) {
    const declaration = first.getSourceFile(probePath)!.statements[0] as ts.ImportDeclaration
    const moduleSymbol = checker.getSymbolAtLocation(declaration.moduleSpecifier)
    const names = new Map<string, 'value' | 'type'>()
    for (const symbol of moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : []) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
      names.set(symbol.name, target.flags & ts.SymbolFlags.Value ? 'value' : 'type')
    }
    exportsOf.set(key, names)
  }
  for (const probePath of [probe, ...scopeProbes.values()]) virtual.delete(probePath)

  // Second pass: each example as a module with the imports it needs.
  const modules = plans.map((plan) => {
    const module = exampleModule(
      plan.example,
      plan.names,
      (specifier) => exportsOf.get(scopeKey(plan.path, specifier)),
      globals,
    )
    virtual.set(plan.path, module.text)
    return { ...plan, headerLines: module.headerLines }
  })
  const program = ts.createProgram({ rootNames: modules.map((m) => m.path), options, host, oldProgram: first })

  const failures: ExampleFailure[] = []
  const dataNamesUsed = new Map<string, number>()
  for (const module of modules) {
    const file = program.getSourceFile(module.path)!
    const codeLines = module.example.code.split('\n')
    for (const diagnostic of [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]) {
      const start = diagnostic.start ?? 0
      const name = file.text.slice(start, start + (diagnostic.length ?? 0))
      if (UNDECLARED.has(diagnostic.code) && dataNames.has(name) && !module.names.api.has(name)) {
        dataNamesUsed.set(name, (dataNamesUsed.get(name) ?? 0) + 1)
        continue
      }
      const message = `${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')} (TS${diagnostic.code})`
      const { example } = module
      const position = file.getLineAndCharacterOfPosition(start)
      const line = position.line - module.headerLines
      const inCode = line >= 0 && line < codeLines.length
      failures.push({
        example,
        at: inCode
          ? `${example.file}:${example.line + line}:${position.character + 1 + (example.columnOffsets?.[line] ?? 0)}`
          : `${example.file}:${example.line}`,
        message: inCode ? message : `in the imports made for this example: ${message}`,
        code: diagnostic.code,
        source: inCode ? codeLines[line]!.trim() : '',
      })
    }
  }
  return { failures, compiled: modules.length, dataNamesUsed }
}

/** A compiler host that also serves the given in-memory files, and parses each real file once for both passes. */
function virtualHost(options: ts.CompilerOptions, virtual: Map<string, string>): ts.CompilerHost {
  const host = ts.createCompilerHost(options, true)
  const parsed = new Map<string, ts.SourceFile | undefined>()
  const { readFile, fileExists, getSourceFile } = host
  host.readFile = (path) => virtual.get(path) ?? readFile.call(host, path)
  host.fileExists = (path) => virtual.has(path) || fileExists.call(host, path)
  host.getSourceFile = (path, languageVersion, onError, shouldCreate) => {
    const text = virtual.get(path)
    if (text !== undefined) return ts.createSourceFile(path, text, languageVersion, true)
    if (!parsed.has(path)) parsed.set(path, getSourceFile.call(host, path, languageVersion, onError, shouldCreate))
    return parsed.get(path)
  }
  return host
}

/** Where an example's module lives: beside the file it is written in, so imports resolve as there. */
function examplePath(root: string, example: CodeExample, index: number): string {
  const name = example.file
    .split('/')
    .pop()!
    .replace(/\.[a-z]+$/, '')
  return join(root, dirname(example.file), `${name}.example-${example.line}-${index}.${example.language}`)
}

/** A scope module's identity: a package name as it is, a relative specifier made absolute. */
function scopeKey(fromPath: string, specifier: string): string {
  return specifier.startsWith('.') ? relative('/', join(dirname(fromPath), specifier)) : specifier
}

/**
 * The module an example is compiled as: imports for the names it uses from where it is
 * written, then the example, wrapped in an async function unless it is a module itself.
 */
function exampleModule(
  example: CodeExample,
  names: ExampleSyntax,
  exportsOf: (specifier: string) => Map<string, 'value' | 'type'> | undefined,
  globals: Set<string>,
): { text: string; headerLines: number } {
  const header: string[] = []
  const imports = new Map<string, string[]>()
  for (const name of names.free) {
    if (globals.has(name)) continue
    // The file's own import comes first, unless it imports only the type of a name the
    // example may use as a value (`import type * as v`): then a module that exports it whole.
    const fileImport = example.fileImports?.[name]
    if (fileImport !== undefined && !/^import type\b|{ type /.test(fileImport)) {
      header.push(fileImport)
      continue
    }
    const specifier = example.scope.find((candidate) => exportsOf(candidate)?.has(name))
    if (specifier !== undefined) {
      const typeOnly = exportsOf(specifier)!.get(name) === 'type' && example.language === 'ts'
      imports.set(specifier, [...(imports.get(specifier) ?? []), typeOnly ? `type ${name}` : name])
    } else if (fileImport !== undefined) {
      header.push(fileImport)
    }
  }
  for (const [specifier, list] of imports) header.push(`import { ${list.join(', ')} } from '${specifier}'`)
  if (names.isModule) return { text: [...header, example.code, ''].join('\n'), headerLines: header.length }
  header.push('export {}', 'export async function example() {')
  return { text: [...header, example.code, '}', ''].join('\n'), headerLines: header.length }
}
