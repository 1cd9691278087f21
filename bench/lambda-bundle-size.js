// The Lambda example's bundle with the AWS SDK inside and left out (`@aws-sdk/*` external, as
// examples/lambda/rolldown.config.js has it: Lambda's Node runtime provides the SDK), built with
// that config (minified ESM, the code a cold start evaluates in one chunk, the rest in chunks
// loaded on demand). Each line gives the cold-start code (the entry and the chunks it imports
// statically) and all the code written (with the chunks loaded on first use). With a git
// revision as argument, that revision's handler is measured too, for the size before datasets.
// Usage: node bench/lambda-bundle-size.js [git revision] (after `npm run build`: the handler
// imports the workspace packages' builds)
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'rolldown'
import config from '../examples/lambda/rolldown.config.js'

const root = fileURLToPath(new URL('../', import.meta.url))
const out = mkdtempSync(join(tmpdir(), 'allmenning-lambda-size-'))
const before = process.argv[2]

async function size(entry, name, external) {
  const dir = join(out, name.replace(/[^a-z0-9]+/gi, '-'))
  const { output } = await build({
    ...config,
    input: { handler: entry },
    external,
    cwd: join(root, 'examples/lambda'),
    logLevel: 'silent',
    output: { ...config.output, dir, sourcemap: false },
  })
  const chunks = new Map(output.filter((file) => file.type === 'chunk').map((chunk) => [chunk.fileName, chunk]))
  const cold = new Set()
  const visit = (file) => {
    if (cold.has(file) || !chunks.has(file)) return
    cold.add(file)
    for (const imported of chunks.get(file).imports) visit(imported)
  }
  visit('handler.mjs')
  const measure = (files) => ({
    bytes: files.reduce((total, file) => total + Buffer.byteLength(chunks.get(file).code), 0),
    gzipped: files.reduce((total, file) => total + gzipSync(chunks.get(file).code).length, 0),
  })
  return { name, cold: measure([...cold]), all: measure([...chunks.keys()]) }
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
  results.push(await size(handler, 'handler, @aws-sdk/* external', [/^@aws-sdk\//]))
  const show = ({ bytes, gzipped }) => `${bytes.toLocaleString('en')} bytes (${gzipped.toLocaleString('en')} gzipped)`
  for (const r of results) console.log(`${r.name}: cold start ${show(r.cold)}; every chunk ${show(r.all)}`)
} finally {
  rmSync(out, { recursive: true, force: true })
}
