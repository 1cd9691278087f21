// The Lambda example's bundle with the AWS SDK inside and left out (`@aws-sdk/*` external, as
// examples/lambda/tsup.config.ts has it: Lambda's Node runtime provides the SDK), built with
// the settings of that tsup config (one minified ESM file, node built-ins external) by
// esbuild, tsup's bundler, from the TypeScript sources (no package build needed). With a git
// revision as argument, that revision's handler is measured too, for the size before datasets.
// Usage: node bench/lambda-bundle-size.js [git revision]
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

const root = fileURLToPath(new URL('../', import.meta.url))
const out = mkdtempSync(join(tmpdir(), 'allmenning-lambda-size-'))
const before = process.argv[2]

async function size(entry, name, external) {
  const outfile = join(out, `${name}.mjs`)
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minify: true,
    tsconfig: join(root, 'tsconfig.json'),
    external,
    logLevel: 'error',
    banner: { js: "import { createRequire as __allmenningCreateRequire } from 'node:module'; const require = __allmenningCreateRequire(import.meta.url);" },
  })
  const bytes = statSync(outfile).size
  return { name, bytes, gzipped: gzipSync(readFileSync(outfile)).length }
}

const results = []
try {
  if (before) {
    // The earlier handler, put beside the current one so its imports resolve the same way.
    const entry = join(root, 'examples/lambda/src/handler-at-revision.ts')
    writeFileSync(entry, execFileSync('git', ['show', `${before}:examples/lambda/src/handler.ts`], { cwd: root }))
    try {
      results.push(await size(entry, `handler at ${before}`, []))
    } finally {
      rmSync(entry, { force: true })
    }
  }
  const handler = join(root, 'examples/lambda/src/handler.ts')
  results.push(await size(handler, 'handler, AWS SDK bundled', []))
  results.push(await size(handler, 'handler, @aws-sdk/* external', ['@aws-sdk/*']))
  for (const r of results) console.log(`${r.name}: ${r.bytes.toLocaleString('en')} bytes (${r.gzipped.toLocaleString('en')} gzipped)`)
} finally {
  rmSync(out, { recursive: true, force: true })
}
