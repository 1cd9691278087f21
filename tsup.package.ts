import { defineConfig, type Options } from 'tsup'

/**
 * The build every published package shares: ESM and CommonJS with type declarations, for
 * Node 20. Each package's tsup.config.ts names only its entry points.
 */
export function packageBuild(entry: Record<string, string>) {
  return defineConfig({ entry, format: ['esm', 'cjs'], dts: true, clean: true, sourcemap: true, target: 'node20' })
}

/** The build of an example server: one ESM entry, dependencies left to node_modules. */
export function exampleBuild(entry: Record<string, string>, extra: Options = {}) {
  return defineConfig({ entry, format: ['esm'], clean: true, sourcemap: true, target: 'node20', ...extra })
}
