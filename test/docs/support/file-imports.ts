import ts from 'typescript'

/**
 * A file's imports, one statement per name it binds, so an example documenting the file can
 * be given exactly those it uses.
 *
 * @example
 * fileImports("import * as v from 'valibot'\nimport { type A, b as c } from './x.js'")
 * // { v: "import * as v from 'valibot'", A: "import { type A } from './x.js'", c: "import { b as c } from './x.js'" }
 */
export function fileImports(source: string): Record<string, string> {
  const file = ts.createSourceFile('file.ts', source, ts.ScriptTarget.Latest, false)
  const found: Record<string, string> = {}
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !statement.importClause) continue
    const from = statement.moduleSpecifier.getText(file)
    const clause = statement.importClause
    const typeOnly = clause.isTypeOnly ? 'type ' : ''
    if (clause.name) found[clause.name.text] = `import ${typeOnly}${clause.name.text} from ${from}`
    const bindings = clause.namedBindings
    if (bindings && ts.isNamespaceImport(bindings))
      found[bindings.name.text] = `import ${typeOnly}* as ${bindings.name.text} from ${from}`
    if (bindings && ts.isNamedImports(bindings)) {
      for (const element of bindings.elements) {
        found[element.name.text] = `import ${typeOnly}{ ${element.getText(file)} } from ${from}`
      }
    }
  }
  return found
}
