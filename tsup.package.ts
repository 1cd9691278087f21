import { readFileSync } from 'node:fs'
import { defineConfig, type Options } from 'tsup'

/**
 * A package's entry points, read from its `package.json` exports: the one place they are
 * declared. Each export names its TypeScript source under the `@allmenning/source` condition
 * and its ESM file `./dist/<name>.js` under `import`; the build makes the one from the other.
 * The type checker (tsconfig.json's customConditions) and the tests (vitest.config.ts's
 * conditions) resolve the same condition, so adding an entry is one block in `exports`.
 */
export function entriesFromExports(packageJsonPath = 'package.json'): Record<string, string> {
  type Entry = { '@allmenning/source': string; import: { default: string } }
  const { exports } = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as { exports: Record<string, Entry> }
  return Object.fromEntries(
    Object.entries(exports).map(([key, entry]) => {
      const source = entry['@allmenning/source'].replace(/^\.\//, '')
      const name = entry.import.default.replace(/^\.\/dist\//, '').replace(/\.js$/, '')
      if (source !== `src/${name}.ts`)
        throw new Error(`${packageJsonPath} exports ${key}: ${entry.import.default} is not built from ${source}`)
      return [name, source]
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
