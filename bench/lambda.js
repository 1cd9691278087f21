// The Lambda example's deployment cost: bundle size (raw and gzipped) and cold start, measured
// as the wall time from spawning a fresh `node` process to its answer of one HTTP API (v2)
// event for a discovery route (no upstream involved). A bare process that imports nothing and
// answers with a trivial handler runs in the same loop, alternating, as the baseline.
// Not Lambda's own init time (no runtime bootstrap, no download): a like-for-like local number.
// Run on its own with `node bench/lambda.js` after `npm run build`, or through `npm run bench`.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'

const bundle = fileURLToPath(new URL('../examples/lambda/dist/handler.mjs', import.meta.url))
const runs = Number(process.env.BENCH_COLD_RUNS ?? 10)
const route = '/api/v1/kilder'

/** What API Gateway (HTTP API, payload 2.0, `$default` stage) delivers for `GET /api/v1/kilder`. */
const event = {
  version: '2.0',
  routeKey: '$default',
  rawPath: route,
  rawQueryString: '',
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
}

/**
 * The child's program. Both variants share it, so they differ only in where `handler` comes
 * from. `performance.now()` in the child counts from its own process start.
 */
function childProgram(withBundle) {
  const load = withBundle
    ? `(await import(${JSON.stringify(pathToFileURL(bundle).href)})).handler`
    : `async () => ({ statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{}' })`
  return `
const handler = ${load}
const imported = performance.now()
const result = await handler(${JSON.stringify(event)}, {})
const answered = performance.now()
process.stdout.write(JSON.stringify({ status: result.statusCode, imported, answered }) + '\\n')
`
}

/** Spawns one fresh process and times it from spawn to the line carrying its answer. */
function coldStart(withBundle) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, ['--input-type=module', '-e', childProgram(withBundle)], {
      stdio: ['ignore', 'pipe', 'inherit'],
      // Only what the process needs; no upstream overrides, no base path.
      env: { PATH: process.env.PATH ?? '' },
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

/** Measures and returns the Lambda section of the benchmark report as markdown; records its key figures in `figures` when given. */
export async function lambdaReport(figures) {
  const bytes = readFileSync(bundle)
  const gzipped = gzipSync(bytes)

  const samples = { bare: [], bundle: [] }
  // One untimed run of each, so both start from a warm file-system cache.
  await coldStart(false)
  await coldStart(true)
  for (let i = 0; i < runs; i++) {
    for (const kind of i % 2 === 0 ? ['bare', 'bundle'] : ['bundle', 'bare']) {
      samples[kind].push(await coldStart(kind === 'bundle'))
    }
  }
  const row = (label, list) => {
    const pick = (key) => list.map((s) => s[key])
    const handle = list.map((s) => s.answered - s.imported)
    return `| ${label} | ${ms(percentile(pick('wall'), 50))} | ${ms(percentile(pick('wall'), 90))} | ${ms(percentile(pick('imported'), 50))} | ${ms(percentile(handle, 50))} |`
  }
  const extra = (key) => percentile(samples.bundle.map((s) => s[key]), 50) - percentile(samples.bare.map((s) => s[key]), 50)
  figures?.record('Lambda bundle bytes', bytes.length, { unit: 'bytes', better: 'lower' })
  figures?.record('Lambda bundle gzipped bytes', gzipped.length, { unit: 'bytes', better: 'lower' })
  figures?.record('Lambda cold start over bare, wall ms', extra('wall'), { unit: 'ms', better: 'lower' })

  return [
    '',
    `Lambda bundle: \`examples/lambda/dist/handler.mjs\``,
    '',
    '| file | bytes | gzipped bytes |',
    '|---|---|---|',
    `| handler.mjs | ${bytes.length} | ${gzipped.length} |`,
    '',
    `Cold start: fresh \`node\` process → one v2 event for \`GET ${route}\` answered; ${runs} runs each, alternating, ms`,
    '',
    '| process | wall median | wall p90 | in-process: start → handler imported (median) | first event handled (median) |',
    '|---|---|---|---|---|',
    row('bare Node, trivial handler (baseline)', samples.bare),
    row('Lambda bundle', samples.bundle),
    `| bundle − baseline (medians) | ${ms(extra('wall'))} | | ${ms(extra('imported'))} | |`,
  ].join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await lambdaReport())
}
