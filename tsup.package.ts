import { readFileSync } from 'node:fs'
import { defineConfig, type Options } from 'tsup'

/**
 * A package's entry points, read from its `package.json` exports: the one place they are
 * declared. Each export's ESM file `./dist/<name>.js` is built from `src/<name>.ts`, so adding
 * an entry is one block in `exports`, which the build, the type checker (paths) and the tests
 * (aliases) follow.
 */
export function entriesFromExports(packageJsonPath = 'package.json'): Record<string, string> {
  const { exports } = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as { exports: Record<string, { import: { default: string } }> }
  return Object.fromEntries(
    Object.values(exports).map(({ import: { default: file } }) => {
      const name = file.replace(/^\.\/dist\//, '').replace(/\.js$/, '')
      return [name, `src/${name}.ts`]
    }),
  )
}

/**
 * The build every published package shares: ESM and CommonJS with type declarations, for
 * Node 20, of the entry points its `package.json` exports.
 */
export function packageBuild(entry: Record<string, string> = entriesFromExports()) {
  return defineConfig({ entry, format: ['esm', 'cjs'], dts: true, clean: true, sourcemap: true, target: 'node20' })
}

/** The build of an example server: one ESM entry, dependencies left to node_modules. */
export function exampleBuild(entry: Record<string, string>, extra: Options = {}) {
  return defineConfig({ entry, format: ['esm'], clean: true, sourcemap: true, target: 'node20', ...extra })
}
