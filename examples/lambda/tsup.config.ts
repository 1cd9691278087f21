import { defineConfig } from 'tsup'

// Self-contained ESM, so the deployment package needs no node_modules: handler.mjs and the
// chunks it imports on demand (chunk-*.mjs and the like, in the same dist/ folder), so what
// only some requests need (Redis, MCP, PDF reading) is neither loaded nor evaluated by a
// cold start that does not ask for it.
export default defineConfig({
  entry: { handler: 'src/handler.ts' },
  format: ['esm'],
  outExtension: () => ({ js: '.mjs' }),
  platform: 'node',
  target: 'node20',
  bundle: true,
  splitting: true,
  // Everything is bundled, workspace packages included; node: built-ins stay external, and so
  // does the AWS SDK (the snapshot's S3 client): Lambda's Node runtime provides it.
  noExternal: [/^(?!@aws-sdk\/)/],
  external: [/^@aws-sdk\//],
  minify: true,
  sourcemap: true,
  clean: true,
  // CommonJS dependencies bundled into ESM still call require() for built-ins; give them one.
  banner: {
    js: "import { createRequire as __allmenningCreateRequire } from 'node:module'; const require = __allmenningCreateRequire(import.meta.url);",
  },
})
