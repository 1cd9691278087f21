// Benchmarks a cache hit through the gateway against a bare framework route sending the
// same bytes, alternating the two in one run. Prints requests/s and p99 latency for each
// and the ratio, then the other benches' sections, and writes them all into the generated
// block of bench/RESULTS.md (see results-file.js). Not part of `npm test`.
import { cpus } from 'node:os'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { median, placement, startServer } from './bench-process.js'
import { startFakeStatnett } from './fake-statnett.js'
import { compositionReport } from './composition.js'
import { lambdaReport } from './lambda.js'
import { mcpReport } from './mcp.js'
import { createFigures, describeMachine, loadAverage, shouldWrite, writeRun } from './results-file.js'

const seconds = Number(process.env.BENCH_SECONDS ?? 6)
const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32)
// Each round gives each target its seconds in this many slices, taking turns (bare, gateway,
// gateway, bare, ...): this virtual machine's speed drifts within seconds, and a drift then
// falls on both targets of a round instead of on one of them.
const slices = Number(process.env.BENCH_SLICES ?? 3)
const path = '/api/v1/kilder/statnett/get_physical_flow?area=NO2&limit=10'


async function start(script, kind, upstream) {
  const { child, message } = await startServer(script, [kind, upstream, path])
  return { child, url: `http://127.0.0.1:${message.port}${path}`, bytes: message.bytes }
}

async function load(url, duration) {
  const result = await autocannon({ url, connections, duration, pipelining: 1 })
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`)
  return { requests: result.requests.total, seconds: result.duration, p99: result.latency.p99 }
}

/** One round: each target's share of the round in slices, taking turns; its req/s over all of them, and its worst slice's p99. */
async function round(targets, first) {
  const totals = { bare: { requests: 0, seconds: 0, p99: 0 }, gateway: { requests: 0, seconds: 0, p99: 0 } }
  for (let slice = 0; slice < slices; slice++) {
    const order = (first + slice) % 2 === 0 ? ['bare', 'gateway'] : ['gateway', 'bare']
    for (const kind of order) {
      const measured = await load(targets[kind].url, seconds / slices)
      totals[kind].requests += measured.requests
      totals[kind].seconds += measured.seconds
      totals[kind].p99 = Math.max(totals[kind].p99, measured.p99)
    }
  }
  const sample = (kind) => ({ rps: totals[kind].requests / totals[kind].seconds, p99: totals[kind].p99 })
  return { bare: sample('bare'), gateway: sample('gateway') }
}

/**
 * A cache hit through the adapter against the bare route, in `rounds` rounds. The ratio is
 * the median of the rounds' ratios (gateway req/s ÷ bare req/s within a round), so each ratio
 * compares measurements taken in the same seconds.
 */
export async function compare(label, script) {
  const upstream = await startFakeStatnett()
  const targets = { bare: await start(script, 'bare', upstream.url), gateway: await start(script, 'gateway', upstream.url) }
  const samples = { bare: [], gateway: [] }
  // Warm both targets once (JIT, connection pools) before measuring.
  await Promise.all(Object.values(targets).map((t) => autocannon({ url: t.url, connections, duration: 2 })))
  for (let r = 0; r < rounds; r++) {
    const measured = await round(targets, r)
    samples.bare.push(measured.bare)
    samples.gateway.push(measured.gateway)
  }
  const row = (kind) => ({ rps: median(samples[kind].map((s) => s.rps)), p99: median(samples[kind].map((s) => s.p99)) })
  const ratios = samples.gateway.map((g, i) => g.rps / samples.bare[i].rps)
  for (const target of Object.values(targets)) target.child.kill()
  await upstream.close()
  return { label, bytes: targets.gateway.bytes, bare: row('bare'), gateway: row('gateway'), ratio: median(ratios), roundRatios: ratios.map((r) => r.toFixed(2)) }
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
    `\nmachine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; ${rounds} rounds × ${seconds} s per target in ${slices} slices taking turns, ${connections} connections; ratio: the median of the rounds' ratios; ${placement}\n`,
    '| framework | body bytes | bare req/s | bare p99 ms | gateway hit req/s | gateway p99 ms | ratio | ratio per round | target |',
    '|---|---|---|---|---|---|---|---|---|',
  ]
  for (const r of results) {
    const ok = r.ratio >= 0.95 ? 'met (≥ 0.95)' : 'MISSED (≥ 0.95)'
    hits.push(`| ${r.label} | ${r.bytes} | ${r.bare.rps.toFixed(0)} | ${r.bare.p99} | ${r.gateway.rps.toFixed(0)} | ${r.gateway.p99} | ${r.ratio.toFixed(3)} | ${r.roundRatios.join(' ')} | ${ok} |`)
    figures.record(`${r.label} hit ratio`, r.ratio, { unit: 'ratio', better: 'higher' })
  }
  print(hits.join('\n'))
  print(await compositionReport(figures))
  print(await lambdaReport(figures))
  print(await mcpReport(figures))
  if (shouldWrite()) {
    const file = fileURLToPath(new URL('./RESULTS.md', import.meta.url))
    const settings = { rounds, seconds, slices, connections, placement }
    writeRun(file, { startedAt, machine, loadStart, loadEnd: loadAverage(), settings, tables, figures: figures.list() })
    console.log(`\nWrote the generated block of ${file} (BENCH_WRITE=0 or --no-write to print only).`)
  }
}
