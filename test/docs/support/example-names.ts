import ts from 'typescript'

/** What an example's own text declares and uses. */
export interface ExampleSyntax {
  /** It imports or exports, so it is a module of its own rather than statements. */
  isModule: boolean
  /** Names it uses but does not declare at its top level, in order of first use. */
  free: string[]
  /**
   * Of those, the ones it calls, constructs, extends or uses as a type, or that start with a
   * capital: names of an API rather than of the reader's own data.
   */
  api: Set<string>
}

/**
 * The names an example uses without declaring them, read from its syntax alone. A name
 * declared only in an inner scope still counts as used: importing it as well is harmless,
 * as the inner declaration shadows the import.
 *
 * @example
 * exampleNames("const gateway = createGateway({ sources })") // free: ['createGateway', 'sources'], api: {'createGateway'}
 */
export function exampleNames(code: string): ExampleSyntax {
  const file = ts.createSourceFile('example.ts', code, ts.ScriptTarget.Latest, true)
  const declared = new Set<string>()
  let isModule = false
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement) || ts.isExportAssignment(statement))
      isModule = true
    if (
      ts.canHaveModifiers(statement) &&
      ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
    )
      isModule = true
    for (const name of topLevelNames(statement)) declared.add(name)
  }
  const used: string[] = []
  const api = new Set<string>()
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && node.text !== '' && isReference(node) && !declared.has(node.text)) {
      if (!used.includes(node.text)) used.push(node.text)
      if (isApiUse(node)) api.add(node.text)
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  return { isModule, free: used, api }
}

function isApiUse(node: ts.Identifier): boolean {
  const parent = node.parent
  if (/^[A-Z]/.test(node.text)) return true
  if ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.expression === node) return true
  if (ts.isTaggedTemplateExpression(parent) && parent.tag === node) return true
  if (ts.isExpressionWithTypeArguments(parent) || ts.isTypeReferenceNode(parent)) return true
  return ts.isQualifiedName(parent) && ts.isTypeReferenceNode(parent.parent)
}

function topLevelNames(statement: ts.Statement): string[] {
  if (ts.isVariableStatement(statement))
    return statement.declarationList.declarations.flatMap((d) => bindingNames(d.name))
  if (ts.isImportDeclaration(statement)) {
    const clause = statement.importClause
    if (!clause) return []
    const names = clause.name ? [clause.name.text] : []
    const bindings = clause.namedBindings
    if (bindings && ts.isNamespaceImport(bindings)) names.push(bindings.name.text)
    if (bindings && ts.isNamedImports(bindings)) names.push(...bindings.elements.map((e) => e.name.text))
    return names
  }
  if (
    (ts.isFunctionDeclaration(statement) ||
      ts.isClassDeclaration(statement) ||
      ts.isInterfaceDeclaration(statement) ||
      ts.isTypeAliasDeclaration(statement) ||
      ts.isEnumDeclaration(statement)) &&
    statement.name
  ) {
    return [statement.name.text]
  }
  return []
}

function bindingNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text]
  return name.elements.flatMap((element) => (ts.isOmittedExpression(element) ? [] : bindingNames(element.name)))
}

/** Whether an identifier stands for a binding from an outer scope, not a key, label or new name. */
function isReference(node: ts.Identifier): boolean {
  const parent = node.parent
  if (ts.isPropertyAccessExpression(parent)) return parent.expression === node
  if (ts.isQualifiedName(parent)) return parent.left === node
  if (ts.isShorthandPropertyAssignment(parent)) return true
  if (ts.isBindingElement(parent)) return false
  if (ts.isLabeledStatement(parent) || ts.isBreakOrContinueStatement(parent) || ts.isMetaProperty(parent)) return false
  if (
    ts.isImportSpecifier(parent) ||
    ts.isImportClause(parent) ||
    ts.isNamespaceImport(parent) ||
    ts.isExportSpecifier(parent)
  )
    return false
  if ('name' in parent && (parent as { name?: ts.Node }).name === node) return false
  return true
}
