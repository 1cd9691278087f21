// Composition benchmarks: a warm cross-source search (mode=all) and a warm place bundle
// (section=all) through Express, each against a warm single operation measured in the same
// run, in req/s and in the server's CPU per request (the bundle's body is several times the
// operation's, and on a two-core machine the load generator reading it weighs on req/s); and,
// in process, a cold search and a cold bundle with one hanging source, which must answer
// within their deadlines. Not part of `npm test`.
import autocannon from 'autocannon'
import { createGateway } from '@allmenning/core'
import { median, startServer } from './bench-process.js'
import { cpuOf } from './cpu-question.js'
import { startFakeStatnett } from './fake-statnett.js'
import { placeSource, searchSource } from './stand-in-sources.js'

const seconds = Number(process.env.BENCH_SECONDS ?? 6)
const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32)
const paths = {
  operation: '/api/v1/kilder/statnett/get_physical_flow?area=NO2&limit=10',
  search: '/api/v1/sok/alle?q=sesam&mode=all&limit=10',
  bundle: '/api/v1/steder/59.9139/10.7522?section=all',
}
async function start(path, upstream) {
  const { child, message } = await startServer('./composition-server.js', ['gateway', upstream, path])
  return { child, url: `http://127.0.0.1:${message.port}${path}`, bytes: message.bytes }
}

/** One target's turn: its req/s, and the requests answered and the server CPU µs they took. */
async function load(target) {
  const before = await cpuOf(target.child)
  const result = await autocannon({ url: target.url, connections, duration: seconds, pipelining: 1 })
  const cpu = (await cpuOf(target.child)) - before
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${target.url}: ${result.non2xx} non-2xx, ${result.errors} errors`)
  return { rps: result.requests.average, requests: result.requests.total, cpu }
}

/** Warm search and bundle against a warm operation, taking turns round by round. */
export async function warmComposition() {
  const upstream = await startFakeStatnett()
  const targets = {}
  for (const [name, path] of Object.entries(paths)) targets[name] = await start(path, upstream.url)
  await Promise.all(Object.values(targets).map((t) => autocannon({ url: t.url, connections, duration: 2 })))
  const samples = { operation: [], search: [], bundle: [] }
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? ['operation', 'search', 'bundle'] : ['bundle', 'search', 'operation']
    for (const name of order) samples[name].push(await load(targets[name]))
  }
  for (const target of Object.values(targets)) target.child.kill()
  await upstream.close()
  const rps = (name) => median(samples[name].map((s) => s.rps))
  const sum = (name, field) => samples[name].reduce((total, s) => total + s[field], 0)
  const cpuPerRequest = (name) => sum(name, 'cpu') / sum(name, 'requests')
  const row = (name) => ({
    name,
    bytes: targets[name].bytes,
    rps: rps(name),
    ratio: rps(name) / rps('operation'),
    perRound: samples[name].map((s, i) => (s.rps / samples.operation[i].rps).toFixed(2)).join(' '),
    cpuPerRequest: cpuPerRequest(name),
    // As the req/s ratio reads: above 1 when a request of this route costs the server less CPU than the operation's.
    cpuRatio: cpuPerRequest('operation') / cpuPerRequest(name),
  })
  return [row('operation'), row('search'), row('bundle')]
}

/** Cold answers with one hanging source: how long they took against their deadline. */
export async function coldWithHangingSource() {
  const runs = 5
  const searchTimes = []
  const bundleTimes = []
  for (let i = 0; i < runs; i++) {
    const search = createGateway({
      sources: [searchSource('quick'), searchSource('slow', { hang: true })],
      search: { deadlineMs: 1000, sourceTimeoutMs: 800 },
      onError: () => {},
    })
    let started = performance.now()
    const s = await search.handle({
      method: 'GET',
      path: '/api/v1/sok/alle',
      query: `q=run${i}&mode=entities`,
      headers: {},
    })
    searchTimes.push(performance.now() - started)
    if (s.status !== 200 || JSON.parse(s.body).coverage.slow.status !== 'timeout')
      throw new Error('the hanging source should time out')
    const places = createGateway({
      sources: [placeSource({ hanging: 'vessels' })],
      places: { deadlineMs: 1000 },
      onError: () => {},
    })
    started = performance.now()
    const b = await places.handle({
      method: 'GET',
      path: `/api/v1/steder/59.9${i}/10.75`,
      query: 'section=all',
      headers: {},
    })
    bundleTimes.push(performance.now() - started)
    if (b.status !== 200 || JSON.parse(b.body).fields.vessels.status !== 'timeout')
      throw new Error('the hanging field should time out')
  }
  return {
    runs,
    searchMs: median(searchTimes),
    searchMax: Math.max(...searchTimes),
    bundleMs: median(bundleTimes),
    bundleMax: Math.max(...bundleTimes),
  }
}

/** Measures and returns the composition section as Markdown; records its ratios in `figures` when given. */
export async function compositionReport(figures) {
  const warm = await warmComposition()
  for (const r of warm)
    if (r.name !== 'operation')
      figures?.record(`composition ${r.name} ÷ operation req/s`, r.ratio, { unit: 'ratio', better: 'higher' })
  const cold = await coldWithHangingSource()
  const lines = [
    '',
    `Composition through Express: warm answers against a warm single operation, same run; ${rounds} rounds × ${seconds} s, median`,
    '',
    '| route | body bytes | req/s | ratio to the operation | ratio per round | target | server CPU µs per request | CPU ratio (operation ÷ route) |',
    '|---|---|---|---|---|---|---|---|',
    ...warm.map(
      (r) =>
        `| ${r.name} \`${paths[r.name]}\` | ${r.bytes} | ${r.rps.toFixed(0)} | ${r.ratio.toFixed(3)} | ${r.perRound} | ${r.name === 'operation' ? '' : r.ratio >= 0.9 ? 'met (≥ 0.90)' : 'MISSED (≥ 0.90)'} | ${r.cpuPerRequest.toFixed(1)} | ${r.cpuRatio.toFixed(3)} |`,
    ),
    '',
    `Cold, with one source that never answers (deadline 1000 ms), ${cold.runs} runs: search median ${cold.searchMs.toFixed(0)} ms (max ${cold.searchMax.toFixed(0)}); section=all bundle of 13 fields median ${cold.bundleMs.toFixed(0)} ms (max ${cold.bundleMax.toFixed(0)}).`,
  ]
  return lines.join('\n')
}
