const folder = 'test/docs/example-context'

/** The placeholder modules the README's and docs/' code blocks may draw on, first match first. */
export const markdownContext = ['everywhere', 'source-code', 'express', 'lambda', 'koa'].map(
  (name) => `${folder}/${name}.ts`,
)

/**
 * The placeholder modules a JSDoc example may draw on, by the package it documents: `app`
 * and `ctx` are a Koa app and context in Koa's adapter and example, an Express app in
 * Express's, and an operation's context everywhere else.
 *
 * @example
 * codeContext('packages/adapter-koa/src/create-koa-middleware.ts') // ['test/docs/example-context/koa.ts', '…/everywhere.ts']
 */
export function codeContext(file: string): string[] {
  const [, name = ''] = /^(?:packages|examples)\/([^/]+)\//.exec(file) ?? []
  const own = /koa/.test(name)
    ? 'koa'
    : /express/.test(name)
      ? 'express'
      : /lambda/.test(name)
        ? 'lambda'
        : 'source-code'
  return [own, 'everywhere'].map((module) => `${folder}/${module}.ts`)
}
