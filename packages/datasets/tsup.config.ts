import { defineConfig } from 'tsup'
import { packageBuild } from '../../tsup.package.js'

// The library in ESM and CommonJS (shims give the CommonJS build import.meta.url, which finds
// the import worker), and beside it, in ESM only, the worker and the `allmenning` executable.
// Every entry lands in dist/ itself, so the worker is always at ./import-worker.js. The build
// script empties dist/ first; neither config cleans, because they run side by side.
export default [
  // The testing kit imports '@allmenning/datasets' by name: kept external, it shares the user's
  // one copy of the store instead of bundling a second.
  { ...packageBuild(), shims: true, clean: false, external: ['@allmenning/datasets'] },
  defineConfig({
    entry: {
      allmenning: 'src/cli/allmenning.ts',
      'import-worker': 'src/import/import-worker.ts',
      'writer-worker': 'src/import/writer-worker.ts',
    },
    format: ['esm'],
    sourcemap: true,
    target: 'node20',
    clean: false,
  }),
]
