// The Lambda example's bundle with the AWS SDK inside and left out (`@aws-sdk/*` external, as
// examples/lambda/tsup.config.ts has it: Lambda's Node runtime provides the SDK), built with
// the settings of that tsup config (minified ESM split into chunks, node built-ins external) by
// esbuild, tsup's bundler, from the TypeScript sources (no package build needed). Each line gives
// the cold-start code (the entry and the chunks it imports statically) and all the code written
// (with the chunks loaded on first use). With a git revision as argument, that revision's handler
// is measured too, for the size before datasets.
// Usage: node bench/lambda-bundle-size.js [git revision]
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

const root = fileURLToPath(new URL('../', import.meta.url))
const out = mkdtempSync(join(tmpdir(), 'allmenning-lambda-size-'))
const before = process.argv[2]

async function size(entry, name, external) {
  const outdir = join(out, name.replace(/[^a-z0-9]+/gi, '-'))
  const { metafile } = await build({
    entryPoints: { handler: entry },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minify: true,
    metafile: true,
    // The metafile's paths are relative to this folder.
    absWorkingDir: root,
    tsconfig: join(root, 'tsconfig.json'),
    external,
    logLevel: 'error',
    banner: { js: "import { createRequire as __allmenningCreateRequire } from 'node:module'; const require = __allmenningCreateRequire(import.meta.url);" },
  })
  const outputs = metafile.outputs
  const cold = new Set()
  const visit = (file) => {
    if (cold.has(file)) return
    cold.add(file)
    for (const imported of outputs[file].imports) if (imported.kind === 'import-statement' && !imported.external) visit(imported.path)
  }
  visit(Object.keys(outputs).find((file) => file.endsWith('handler.mjs')))
  const measure = (files) => ({
    bytes: files.reduce((total, file) => total + outputs[file].bytes, 0),
    gzipped: files.reduce((total, file) => total + gzipSync(readFileSync(join(root, file))).length, 0),
  })
  return { name, cold: measure([...cold]), all: measure(Object.keys(outputs).filter((file) => file.endsWith('.mjs'))) }
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
  const show = ({ bytes, gzipped }) => `${bytes.toLocaleString('en')} bytes (${gzipped.toLocaleString('en')} gzipped)`
  for (const r of results) console.log(`${r.name}: cold start ${show(r.cold)}; every chunk ${show(r.all)}`)
} finally {
  rmSync(out, { recursive: true, force: true })
}
