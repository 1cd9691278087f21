// The Lambda example's deployment cost: the code it deploys (raw and gzipped) and cold start,
// measured as the wall time from spawning a fresh `node` process to its answer of one HTTP API
// (v2) event. A bare process that imports nothing and answers with a trivial handler runs in the
// same loop, alternating, as the baseline. Two first events: a discovery route (no upstream),
// and an operation whose answer needs an upstream call (a local Statnett stand-in), which also
// loads Node's own HTTP client (undici, a chunk, only with an `upstream.dispatcher`).
// The example is built in chunks (examples/lambda/rolldown.config.js): handler.mjs, which holds
// what every cold start loads, and chunks imported on first use (each source's operations, MCP,
// undici, Redis, PDF reading, the Lovdata archive reader). The size figures count handler.mjs
// and any chunk it imports statically ("cold-start code") and every .mjs file in dist/
// ("deployed code"); the table lists each file.
// Not Lambda's own init time (no runtime bootstrap, no download): a like-for-like local number.
// Run on its own with `node bench/lambda.js` after `npm run build`, or through `npm run bench`.
// The milliseconds move with this machine's speed by more than most changes do (the same build
// read 24 and 35 ms over bare an hour apart), so a cold start is compared with another build's
// only in the same run: with BENCH_LAMBDA_REFERENCE naming that build's dist/ (made by
// `node bench/reference-lambda.js <commit>`), its cold start runs in every round too, in turns,
// and the report gives the median of the rounds' differences with a 90% interval.
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'
import { startFakeStatnett } from './fake-statnett.js'

const dist = fileURLToPath(new URL('../examples/lambda/dist/', import.meta.url))
const bundle = join(dist, 'handler.mjs')
const runs = Number(process.env.BENCH_COLD_RUNS ?? 10)
/** Another build's examples/lambda/dist/, whose cold start is measured beside this one's. */
const referenceDist = process.env.BENCH_LAMBDA_REFERENCE || undefined
if (referenceDist && !existsSync(join(referenceDist, 'handler.mjs'))) {
  throw new Error(
    `BENCH_LAMBDA_REFERENCE names ${referenceDist}, which holds no handler.mjs: give the dist/ that node bench/reference-lambda.js <commit> prints`,
  )
}
const route = '/api/v1/kilder'
const upstreamRoute = '/api/v1/kilder/statnett/get_physical_flow'
const upstreamQuery = 'area=NO2&limit=10'

/**
 * The chunks a file imports statically (`import … from "./chunk.mjs"`, `import "./chunk.mjs"`,
 * `export … from "./chunk.mjs"`), not those it imports with `import("./chunk.mjs")`.
 */
function staticImports(file) {
  const text = readFileSync(join(dist, file), 'utf8')
  return [...text.matchAll(/\b(?:import|export)\s*(?:[\w$*{},\s]*?\s*from\s*)?["']\.\/([^"']+\.mjs)["']/g)].map(
    (m) => m[1],
  )
}

/** handler.mjs and every chunk it reaches through static imports: what a cold start loads. */
function coldStartFiles() {
  const files = new Set()
  const visit = (file) => {
    if (files.has(file)) return
    files.add(file)
    for (const imported of staticImports(file)) visit(imported)
  }
  visit('handler.mjs')
  return files
}

/** What API Gateway (HTTP API, payload 2.0, `$default` stage) delivers for `GET path?query`. */
const eventFor = (route, query = '') => ({
  version: '2.0',
  routeKey: '$default',
  rawPath: route,
  rawQueryString: query,
  headers: { accept: 'application/json', host: 'local.execute-api.eu-north-1.amazonaws.com', 'user-agent': 'bench' },
  requestContext: {
    accountId: '123456789012',
    apiId: 'local',
    domainName: 'local.execute-api.eu-north-1.amazonaws.com',
    domainPrefix: 'local',
    http: { method: 'GET', path: route, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
    requestId: 'bench',
    routeKey: '$default',
    stage: '$default',
    time: '01/Jan/2026:00:00:00 +0000',
    timeEpoch: 1767225600000,
  },
  isBase64Encoded: false,
})

/**
 * The child's program. Both variants share it, so they differ only in where `handler` comes
 * from. `performance.now()` in the child counts from its own process start.
 */
function childProgram(handlerFile, event) {
  const load = handlerFile
    ? `(await import(${JSON.stringify(pathToFileURL(handlerFile).href)})).handler`
    : `async () => ({ statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{}' })`
  return `
const handler = ${load}
const imported = performance.now()
const result = await handler(${JSON.stringify(event)}, {})
const answered = performance.now()
process.stdout.write(JSON.stringify({ status: result.statusCode, imported, answered }) + '\\n')
`
}

/**
 * Spawns one fresh process and times it from spawn to the line carrying its answer.
 * `handlerFile` is the bundle's handler.mjs (none: the bare process); `upstream` is the
 * Statnett stand-in's URL for the event that calls it.
 */
function coldStart(handlerFile, upstream) {
  const event = upstream ? eventFor(upstreamRoute, upstreamQuery) : eventFor(route)
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, ['--input-type=module', '-e', childProgram(handlerFile, event)], {
      stdio: ['ignore', 'pipe', 'inherit'],
      // Only what the process needs: no base path, and an upstream override only for the Statnett event.
      env: {
        PATH: process.env.PATH ?? '',
        ...(upstream ? { ALLMENNING_UPSTREAM_STATNETT: upstream, ALLMENNING_RATE_LIMIT: 'off' } : {}),
      },
    })
    let output = ''
    let answer
    child.stdout.on('data', (chunk) => {
      output += chunk
      if (answer === undefined && output.includes('\n')) {
        const wall = performance.now() - started
        answer = { wall, ...JSON.parse(output.slice(0, output.indexOf('\n'))) }
      }
    })
    child.on('error', reject)
    child.on('exit', (code) => {
      if (code !== 0 || answer === undefined) reject(new Error(`cold-start child exited with ${code}: ${output}`))
      else if (answer.status !== 200) reject(new Error(`cold-start child answered ${answer.status}`))
      else resolve(answer)
    })
  })
}

/** Nearest-rank percentile. */
function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]
}

const ms = (value) => value.toFixed(1)

/**
 * The median of paired differences and its 90% interval, by resampling the pairs (2,000
 * times, with a fixed seed so a report can be made again): how far one build's cold start is
 * from another's, each round's pair measured in the same seconds.
 */
function pairedDifference(differences) {
  const median = (values) => percentile(values, 50)
  let seed = 0x2545f491
  const random = () => {
    seed ^= seed << 13
    seed ^= seed >>> 17
    seed ^= seed << 5
    return (seed >>> 0) / 2 ** 32
  }
  const resampled = Array.from({ length: 2000 }, () =>
    median(differences.map(() => differences[Math.floor(random() * differences.length)])),
  ).sort((a, b) => a - b)
  return { median: median(differences), low: resampled[100], high: resampled[1899] }
}

/** Measures and returns the Lambda section of the benchmark report as markdown; records its key figures in `figures` when given. */
export async function lambdaReport(figures) {
  const loaded = coldStartFiles()
  const files = readdirSync(dist)
    .filter((file) => file.endsWith('.mjs'))
    .map((file) => {
      const bytes = readFileSync(join(dist, file))
      return { file, bytes: bytes.length, gzipped: gzipSync(bytes).length, cold: loaded.has(file) }
    })
    .sort(
      (a, b) =>
        Number(b.cold) - Number(a.cold) ||
        (a.file === 'handler.mjs' ? -1 : b.file === 'handler.mjs' ? 1 : b.bytes - a.bytes),
    )
  const sum = (list, key) => list.reduce((total, f) => total + f[key], 0)
  const cold = files.filter((f) => f.cold)

  const statnett = await startFakeStatnett()
  const samples = { bare: [], bundle: [], bareUpstream: [], bundleUpstream: [], reference: [] }
  const handlerOf = {
    bare: undefined,
    bundle,
    bareUpstream: undefined,
    bundleUpstream: bundle,
    reference: referenceDist && join(referenceDist, 'handler.mjs'),
  }
  const kinds = ['bare', 'bundle', 'bareUpstream', 'bundleUpstream', ...(referenceDist ? ['reference'] : [])]
  try {
    // One untimed run of each, so every variant starts from a warm file-system cache.
    for (const kind of kinds) await coldStart(handlerOf[kind], kind.endsWith('Upstream') ? statnett.url : undefined)
    for (let i = 0; i < runs; i++) {
      const order = i % 2 === 0 ? kinds : [...kinds].reverse()
      for (const kind of order) {
        samples[kind].push(await coldStart(handlerOf[kind], kind.endsWith('Upstream') ? statnett.url : undefined))
      }
    }
  } finally {
    await statnett.close()
  }
  const row = (label, list) => {
    const pick = (key) => list.map((s) => s[key])
    const handle = list.map((s) => s.answered - s.imported)
    return `| ${label} | ${ms(percentile(pick('wall'), 50))} | ${ms(percentile(pick('wall'), 90))} | ${ms(percentile(pick('imported'), 50))} | ${ms(percentile(handle, 50))} |`
  }
  const median = (kind, key) =>
    percentile(
      samples[kind].map((s) => s[key]),
      50,
    )
  const extra = (kind, base, key) => median(kind, key) - median(base, key)
  figures?.record('Lambda cold-start code bytes', sum(cold, 'bytes'), { unit: 'bytes', better: 'lower' })
  figures?.record('Lambda cold-start code gzipped bytes', sum(cold, 'gzipped'), { unit: 'bytes', better: 'lower' })
  figures?.record('Lambda deployed code bytes', sum(files, 'bytes'), { unit: 'bytes', better: 'lower' })
  figures?.record('Lambda cold start over bare, wall ms', extra('bundle', 'bare', 'wall'), {
    unit: 'ms',
    better: 'lower',
  })
  figures?.record(
    'Lambda cold start with an upstream call over bare, wall ms',
    extra('bundleUpstream', 'bareUpstream', 'wall'),
    { unit: 'ms', better: 'lower' },
  )
  // This build's cold start less the reference build's, round by round: below 0 is faster.
  const againstReference =
    referenceDist && pairedDifference(samples.bundle.map((sample, i) => sample.wall - samples.reference[i].wall))
  if (againstReference) {
    figures?.record('Lambda cold start, this build − reference build, wall ms', againstReference.median, {
      unit: 'ms',
      better: 'lower',
    })
  }

  return [
    '',
    `Lambda bundle: \`examples/lambda/dist/*.mjs\`; "cold start" marks handler.mjs and the chunks it imports statically, loaded by every cold start; the others load on first use`,
    '',
    '| file | loaded | bytes | gzipped bytes |',
    '|---|---|---|---|',
    ...files.map(
      (f) =>
        `| ${f.file.replace(/-[A-Za-z0-9_-]{8}\.mjs$/, '-….mjs')} | ${f.cold ? 'cold start' : 'on first use'} | ${f.bytes} | ${f.gzipped} |`,
    ),
    `| **cold-start code** | | **${sum(cold, 'bytes')}** | **${sum(cold, 'gzipped')}** |`,
    `| deployed code (every file) | | ${sum(files, 'bytes')} | ${sum(files, 'gzipped')} |`,
    '',
    `Cold start: fresh \`node\` process → one v2 event answered: \`GET ${route}\` (no upstream), or \`GET ${upstreamRoute}?${upstreamQuery}\` (one call to a local Statnett stand-in; the bare process calls nothing); ${runs} runs each, alternating, ms`,
    '',
    '| process | wall median | wall p90 | in-process: start → handler imported (median) | first event handled (median) |',
    '|---|---|---|---|---|',
    row('bare Node, trivial handler (baseline)', samples.bare),
    row(`Lambda bundle, \`${route}\``, samples.bundle),
    `| bundle − baseline (medians) | ${ms(extra('bundle', 'bare', 'wall'))} | | ${ms(extra('bundle', 'bare', 'imported'))} | |`,
    row('bare Node, trivial handler (baseline, second run)', samples.bareUpstream),
    row('Lambda bundle, `get_physical_flow` (upstream call)', samples.bundleUpstream),
    `| bundle − baseline (medians) | ${ms(extra('bundleUpstream', 'bareUpstream', 'wall'))} | | ${ms(extra('bundleUpstream', 'bareUpstream', 'imported'))} | |`,
    ...(againstReference
      ? [
          row(`reference build (\`${referenceDist}\`), \`${route}\``, samples.reference),
          `| reference − baseline (medians) | ${ms(extra('reference', 'bare', 'wall'))} | | ${ms(extra('reference', 'bare', 'imported'))} | |`,
          '',
          `This build's cold start less the reference build's, \`${route}\`, the median of the ${runs} rounds' differences (each round runs both): **${ms(againstReference.median)} ms** (90% interval ${ms(againstReference.low)} to ${ms(againstReference.high)}; below 0, this build is faster).`,
        ]
      : []),
  ].join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await lambdaReport())
}
