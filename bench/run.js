// Benchmarks a cache hit through the gateway against a bare framework route sending the
// same bytes, alternating the two in one run. Prints requests/s and p99 latency for each
// and the ratio, then the other benches' sections, and writes them all into the generated
// block of bench/RESULTS.md (see results-file.js). Not part of `npm test`.
import { cpus } from 'node:os'
import { fileURLToPath } from 'node:url'
import { alternate, settings } from './alternating-rounds.js'
import { placement, startServer, stopProcess } from './bench-process.js'
import { startFakeStatnett } from './fake-statnett.js'
import { compositionReport } from './composition.js'
import { exampleReport, exampleRounds } from './example-as-shipped.js'
import { pieceReport } from './piece-costs.js'
import { lambdaReport } from './lambda.js'
import { mcpReport } from './mcp.js'
import { createFigures, describeMachine, loadAverage, shouldWrite, writeRun } from './results-file.js'

const { seconds, rounds, connections, slices } = settings
const path = '/api/v1/kilder/statnett/get_physical_flow?area=NO2&limit=10'

async function start(script, kind, upstream) {
  const { child, message } = await startServer(script, [kind, upstream, path])
  return { child, url: `http://127.0.0.1:${message.port}${path}`, bytes: message.bytes }
}

/**
 * A cache hit through the adapter against the bare route, in `rounds` rounds, each with a
 * fresh process of each. The ratio is the median of the rounds' ratios (gateway req/s ÷ bare
 * req/s within a round), so each ratio compares measurements taken in the same seconds.
 */
export async function compare(label, script) {
  const upstream = await startFakeStatnett()
  let bytes
  try {
    const measured = await alternate(async () => {
      const bare = await start(script, 'bare', upstream.url)
      const gateway = await start(script, 'gateway', upstream.url)
      bytes = gateway.bytes
      return {
        urls: { bare: bare.url, gateway: gateway.url },
        stop: () => Promise.all([stopProcess(bare.child), stopProcess(gateway.child)]),
      }
    })
    return { label, bytes, ...measured }
  } finally {
    await upstream.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // Read before anything runs, so the block shows what the machine was doing when the bench began.
  const startedAt = new Date()
  const loadStart = loadAverage()
  const machine = describeMachine()
  const figures = createFigures()
  const tables = []
  // Print each section as soon as it is measured, and keep it for the results file.
  const print = (text) => {
    console.log(text)
    tables.push(text)
  }
  const results = [await compare('Express 5', './express-server.js'), await compare('Koa 3', './koa-server.js')]
  const hits = [
    `\nmachine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; ${rounds} rounds, each with fresh processes, × ${seconds} s per target in ${slices} slices taking turns, ${connections} connections; ratio: the median of the rounds' ratios; ${placement}\n`,
    '| framework | body bytes | bare req/s | bare p99 ms | gateway hit req/s | gateway p99 ms | ratio | ratio per round | target |',
    '|---|---|---|---|---|---|---|---|---|',
  ]
  for (const r of results) {
    const ok = r.ratio >= 0.95 ? 'met (≥ 0.95)' : 'MISSED (≥ 0.95)'
    hits.push(
      `| ${r.label} | ${r.bytes} | ${r.bare.rps.toFixed(0)} | ${r.bare.p99} | ${r.gateway.rps.toFixed(0)} | ${r.gateway.p99} | ${r.ratio.toFixed(3)} | ${r.roundRatios.join(' ')} | ${ok} |`,
    )
    figures.record(`${r.label} hit ratio`, r.ratio, { unit: 'ratio', better: 'higher' })
  }
  print(hits.join('\n'))
  // The examples as a user runs them, every default on: a cost a default adds shows here, beside the minimal gateway's.
  print(
    await exampleReport(
      figures,
      `The examples as shipped (\`examples/*/dist/main.js\`: every built-in source, rate limits counting each request, metrics, tracing without an SDK, MCP) against a bare route of the same framework sending the same bytes and headers; ${exampleRounds} rounds, each with fresh processes, × ${seconds} s per target in ${slices} slices taking turns, median of the rounds' ratios; CPU µs per request over all rounds; ${placement}`,
    ),
  )
  print(await pieceReport(figures))
  print(await compositionReport(figures))
  print(await lambdaReport(figures))
  print(await mcpReport(figures))
  if (shouldWrite()) {
    const file = fileURLToPath(new URL('./RESULTS.md', import.meta.url))
    const settings = { rounds, freshProcesses: true, seconds, slices, connections, placement }
    writeRun(file, { startedAt, machine, loadStart, loadEnd: loadAverage(), settings, tables, figures: figures.list() })
    console.log(`\nWrote the generated block of ${file} (BENCH_WRITE=0 or --no-write to print only).`)
  }
}
