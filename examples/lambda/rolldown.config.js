import { defineConfig } from 'rolldown'

// Self-contained ESM, so the deployment package needs no node_modules: handler.mjs, the code
// every cold start evaluates, and the chunks imported on demand beside it (each built-in
// source's operations, MCP, Redis, PDF reading and the like), so what only some requests need
// is neither loaded nor evaluated by a cold start that does not ask for it.
// Rolldown rather than tsup (esbuild): esbuild gives every module that the entry and a chunk
// imported on demand share a chunk of its own, and each source's upstreams and place fields,
// shared with its operations, made some 25 chunks of under 2 KB, each a file a cold start
// resolves, reads and links (about 0.3 ms apiece). The `initial` group puts everything the
// entry imports statically into one chunk, which the on-demand chunks import from; and as the
// entry's exports may grow (`preserveEntrySignatures`), that chunk is handler.mjs itself, with
// Rolldown's helpers, rather than two more files beside it (0.5–1 ms of a cold start).
export default defineConfig({
  input: { handler: 'src/handler.ts' },
  platform: 'node',
  preserveEntrySignatures: 'allow-extension',
  // Everything is bundled, workspace packages included; node: built-ins stay external, and so
  // does the AWS SDK (the snapshot's S3 client): Lambda's Node runtime provides it.
  external: [/^@aws-sdk\//],
  // In this repository the workspace packages are bundled from their TypeScript sources, which
  // their exports name under this condition (no build of theirs needed first). Installed from
  // npm, they carry only dist/: leave the condition out there.
  resolve: { conditionNames: ['@allmenning/source', 'node', 'import', 'default'] },
  output: {
    dir: 'dist',
    format: 'esm',
    entryFileNames: '[name].mjs',
    chunkFileNames: '[name]-[hash].mjs',
    minify: true,
    // Text outside ASCII written as escapes: Node reads a file with even one such character
    // into a two-byte string, which takes a cold start longer to decode and compile (about
    // 0.3 ms for handler.mjs) and holds twice the memory for as long as the code lives.
    charset: 'ascii',
    sourcemap: true,
    cleanDir: true,
    // The handler's module has no top-level await, so the chunks it imports on demand may
    // import from the one it is in.
    codeSplitting: { groups: [{ name: 'initial', tags: ['$initial'], test: () => true }] },
  },
})
